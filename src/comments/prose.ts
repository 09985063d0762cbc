/**
 * Comment threads in prose: what `git diff` shows for a thread file (the textconv driver) and what
 * `studio review --markdown` lists under a deck's changes (the open threads on the slides it changed).
 */
import type { Anchor } from './anchor.js'
import { parseThread, THREAD_ID, type Thread, type Who } from './store.js'

/** The CLI text form of an anchor (`deck`, `slide:<id>`, `<slide>#<block>/<path>:<start>-<end>`, ...). */
export function anchorText(anchor: Anchor): string {
  switch (anchor.kind) {
    case 'deck':
      return 'deck'
    case 'slide':
      return `slide:${anchor.slideId}`
    case 'notes':
      return `notes:${anchor.slideId}`
    case 'block':
      return `${anchor.slideId}#${anchor.blockId}`
    case 'range':
      return `${anchor.slideId}#${anchor.blockId}${anchor.path}:${anchor.range[0]}-${anchor.range[1]}`
    case 'cell':
      return `${anchor.slideId}#${anchor.blockId}/cell:${anchor.row},${anchor.col}`
  }
}

const whoText = (who: Who) => ('principal' in who ? who.principal : who.email)

/** A comment's text with its `{@n}` tokens as `@name`. */
export function bodyText(text: string, mentions: Who[] = []): string {
  return text.replace(/\{@(\d+)\}/g, (token, n) => (mentions[Number(n)] ? `@${whoText(mentions[Number(n)])}` : token))
}

/** One line saying where a thread sits and in what state. */
export function threadHeadline(thread: Thread): string {
  const quote = thread.quote && thread.anchor.kind === 'range' ? ` "${thread.quote.exact}"` : ''
  const status = thread.status === 'attached' ? '' : thread.status === 'detached' ? ', its text is gone' : ', what it was on is gone'
  const assigned = thread.assignee ? `, assigned to ${whoText(thread.assignee)}${thread.done ? ' (done)' : ''}` : ''
  return `Thread ${thread.id} (${thread.state}${status}${assigned}) on ${anchorText(thread.anchor)}${quote}`
}

/** A thread file as prose for `git diff`: one line per comment, reactions and tombstones included. */
export function threadProse(thread: Thread): string {
  const lines = [threadHeadline(thread)]
  for (const c of thread.comments) {
    const when = c.at.slice(0, 16).replace('T', ' ')
    if (c.deletedAt) lines.push(`  ${c.id} ${c.author}, ${when}: (deleted ${c.deletedAt.slice(0, 10)})`)
    else lines.push(`  ${c.id} ${c.author}, ${when}${c.editedAt ? ' (edited)' : ''}: ${bodyText(c.body.text, c.body.mentions).replace(/\n/g, '\n      ')}`)
    const reactions = Object.entries(c.reactions).filter(([, who]) => who.length)
    if (reactions.length) lines.push(`      reactions: ${reactions.map(([emoji, who]) => `${emoji} ${who.join(', ')}`).join('; ')}`)
  }
  return lines.join('\n') + '\n'
}

/** textconv's reading of a comment file: the thread in prose, or the comments revision; null when it is neither. */
export function commentFileProse(value: Record<string, unknown>, text: string): string | null {
  if (typeof value.id === 'string' && THREAD_ID.test(value.id) && Array.isArray(value.comments)) {
    const thread = parseThread(text, value.id)
    return thread ? threadProse(thread) : null
  }
  const keys = Object.keys(value)
  if (keys.length === 1 && keys[0] === 'revision' && Number.isInteger(value.revision)) return `Comments revision ${value.revision}\n`
  return null
}
