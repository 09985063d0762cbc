/** export.text's `includeComments`: the open threads as plain lines, after the slide they are on. */
import type { ActionContext } from '../core/action.js'
import { can } from '../core/access.js'
import { fail } from '../core/errors.js'
import type { DeckDoc } from '../model/deck.js'
import { bodyText } from './prose.js'
import { readThreads, resolvedThread, type Thread } from './store.js'

/** The open threads of the deck by the slide they are on ('' for the deck's own); refused without readComments. */
export function openThreadsBySlide(ctx: ActionContext, deckId: string, doc: DeckDoc): Map<string, Thread[]> {
  if (!can(ctx.principal, 'readComments')) fail('forbidden', `includeComments needs the right to read comments on this deck, which your role (${ctx.principal.role}) does not give.`, { pointer: '/includeComments' })
  const out = new Map<string, Thread[]>()
  for (const stored of readThreads(ctx.ws, deckId).values()) {
    if (stored.state !== 'open') continue
    const thread = resolvedThread(doc, stored)
    const key = 'slideId' in thread.anchor ? thread.anchor.slideId : ''
    out.set(key, [...(out.get(key) ?? []), thread])
  }
  for (const threads of out.values()) threads.sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))
  return out
}

/** A thread as lines: `Comment on "quote" (Ana): text`, each reply indented. */
export function threadLines(thread: Thread): string[] {
  const live = thread.comments.filter((c) => !c.deletedAt)
  const on = thread.quote && thread.anchor.kind === 'range' ? ` on "${thread.quote.exact}"` : ''
  return live.map((c, i) => `${i ? '  Reply' : `Comment${on}`} (${c.author}): ${bodyText(c.body.text, c.body.mentions)}`)
}
