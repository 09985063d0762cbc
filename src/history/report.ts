/**
 * The review report of `studio review`: per deck changed between two refs, the slides added,
 * removed, moved and changed with the prose of each change, as Markdown ready to post as a
 * pull-request comment, or as plain text for a terminal; and the review of a merge commit
 * (`studio review --merge`): what each side brought, the conflicts and how they were settled.
 * Pure: it renders a Review or a MergeReview.
 */
import { slideLabel, type SlideChange } from './diff.js'
import type { DeckComparison, Review } from './index.js'
import type { MergeDeckReview, MergeReview, SettledConflict, SideReport } from './merge-review.js'
import { describe } from './merge.js'
import type { Thread } from '../comments/store.js'
import { bodyText, threadHeadline } from '../comments/prose.js'

/** A before/after picture pair of a review (src/render/crops.ts writes them). */
export interface ReviewPicture {
  deck: string
  slideId: string
  blockId: string | null
  theme: 'light' | 'dark'
  before: string | null
  after: string | null
}

export interface ReportOptions {
  /** Pictures to show under each slide (`studio review --render`). */
  crops?: ReviewPicture[]
  /** Where the CI job publishes the pictures' folder: links become `<imageBase>/<file name>`; workspace paths when absent. */
  imageBase?: string
  /** The comment threads of each deck at the head, by deck id: the open ones on changed slides are listed. */
  threads?: Map<string, Thread[]>
}

/** The open threads of a deck anchored on the slides its review lists (added, moved or changed). */
function openThreads(deck: DeckComparison, options: ReportOptions): { label: string; thread: Thread }[] {
  const slides = new Map(deck.diff.slides.filter((s) => s.kind !== 'removed').map((s) => [s.slideId, slideLabel(s.number, s.title, s.slideId)]))
  return (options.threads?.get(deck.id) ?? [])
    .filter((t) => t.state === 'open' && 'slideId' in t.anchor && slides.has(t.anchor.slideId))
    .map((thread) => ({ label: slides.get((thread.anchor as { slideId: string }).slideId)!, thread }))
}

/** A thread in one line of a review: where, its first comment, how many replies, whom it is assigned to. */
function threadLine(label: string, thread: Thread): string {
  const live = thread.comments.filter((c) => !c.deletedAt)
  const first = live[0] ? `${live[0].author}: ${bodyText(live[0].body.text, live[0].body.mentions).replace(/\s+/g, ' ').slice(0, 140)}` : '(its comments are deleted)'
  const replies = live.length > 1 ? ` (${live.length - 1} ${live.length === 2 ? 'reply' : 'replies'})` : ''
  return `${label}, ${threadHeadline(thread).replace(/^Thread /, 'thread ')}: ${first}${replies}`
}

/** The Markdown of a change's pictures: one line per crop, before → after, 320 px wide. */
function pictureLines(deck: string, slideId: string, options: ReportOptions): string[] {
  // With imageBase, the pictures' folder is published as is: a link is the base and the file name.
  const link = (path: string) => (options.imageBase ? `${options.imageBase.replace(/\/$/, '')}/${encodeURIComponent(path.split('/').pop()!)}` : path.split('/').map(encodeURIComponent).join('/'))
  const img = (path: string | null, alt: string) => (path ? `<img src="${link(path)}" alt="${alt}" width="320">` : `<sub>(${alt}: none)</sub>`)
  return (options.crops ?? [])
    .filter((c) => c.deck === deck && c.slideId === slideId)
    .map((c) => `  ${c.blockId ? `<sub>${md(c.blockId)}</sub> ` : ''}${img(c.before, 'before')} → ${img(c.after, 'after')}`)
}

/** Escapes the characters Markdown would read as markup in a line of prose. */
export function md(text: string): string {
  return text.replace(/([\\`*_{}[\]<>|#~])/g, '\\$1')
}

const short = (sha: string | null) => (sha ? sha.slice(0, 7) : 'none')

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

function summaryLine(deck: DeckComparison, review: Review): string {
  const who = review.authors.get(deck.id)
  const revisions = deck.from === null ? `new at revision ${deck.to}` : deck.to === null ? `removed (was at revision ${deck.from})` : `revision ${deck.from} → ${deck.to}`
  const counted = [
    deck.counts.added && `${deck.counts.added} added`,
    deck.counts.removed && `${deck.counts.removed} removed`,
    deck.counts.moved && `${deck.counts.moved} moved`,
    deck.counts.changed && `${deck.counts.changed} changed`,
  ].filter(Boolean)
  const slides = counted.length ? `slides: ${counted.join(', ')}` : 'no slide changed'
  const by = who ? `${plural(who.commits, 'commit')} by ${who.authors.join(', ')}` : ''
  return [revisions, slides, by].filter(Boolean).join(' · ')
}

const GROUPS: { kind: SlideChange['kind']; heading: string }[] = [
  { kind: 'added', heading: 'Added' },
  { kind: 'removed', heading: 'Removed' },
  { kind: 'moved', heading: 'Moved' },
  { kind: 'changed', heading: 'Changed' },
]

function removedLabel(change: SlideChange): string {
  return change.title ? `'${change.title}' (was slide ${change.number})` : `${change.slideId} (was slide ${change.number})`
}

/** The report as Markdown (a pull-request comment). */
export function reviewMarkdown(review: Review, options: ReportOptions = {}): string {
  const lines: string[] = ['## Deck review', '']
  const range = `\`${md(review.fromRef)}\` (${review.fromCommit ? `merge base ${short(review.fromCommit)}` : 'no common history'}) → \`${md(review.toRef)}\` (${short(review.toCommit)})`
  if (!review.decks.length) {
    lines.push(`No deck changed between ${range}.`)
  } else {
    lines.push(`${range}: ${plural(review.decks.length, 'deck')} changed.`)
    for (const deck of review.decks) {
      lines.push('', `### ${md(deck.title)} (\`${deck.id}\`)`, '', `_${md(summaryLine(deck, review))}_`)
      if (deck.diff.deck.length) {
        lines.push('', '**Deck**', '')
        for (const sentence of deck.diff.deck) lines.push(`- ${md(sentence)}`)
      }
      for (const group of GROUPS) {
        const changes = deck.diff.slides.filter((s) => s.kind === group.kind)
        if (!changes.length) continue
        lines.push('', `**${group.heading}**`, '')
        for (const change of changes) {
          const label = slideLabel(change.number, change.title, change.slideId)
          if (change.kind === 'removed') lines.push(`- ${md(removedLabel(change))}`)
          else if (change.kind === 'added') lines.push(`- **${md(label)}** ${md(change.parts[0].replace(/^added /, ''))}`)
          else if (change.parts.length === 1) lines.push(`- **${md(label)}**: ${md(change.parts[0])}`)
          else {
            lines.push(`- **${md(label)}**`)
            for (const part of change.parts) lines.push(`  - ${md(part)}`)
          }
          const pictures = pictureLines(deck.id, change.slideId, options)
          if (pictures.length) lines.push('', ...pictures, '')
        }
      }
      const threads = openThreads(deck, options)
      if (threads.length) {
        lines.push('', '**Open comment threads on these slides**', '')
        for (const { label, thread } of threads) lines.push(`- ${md(threadLine(label, thread))}`)
      }
    }
  }
  lines.push('', '<sub>Written by `studio review`. Slide numbers are positions in the newer deck; a removed slide keeps its old number.</sub>')
  return lines.join('\n') + '\n'
}

/** The report as plain text (a terminal). */
export function reviewText(review: Review, options: ReportOptions = {}): string {
  const lines: string[] = []
  const range = `${review.fromRef} (${review.fromCommit ? `merge base ${short(review.fromCommit)}` : 'no common history'}) → ${review.toRef} (${short(review.toCommit)})`
  if (!review.decks.length) lines.push(`No deck changed between ${range}.`)
  else lines.push(`${range}: ${plural(review.decks.length, 'deck')} changed.`)
  for (const deck of review.decks) {
    lines.push('', `${deck.title} (${deck.id}): ${summaryLine(deck, review)}`)
    for (const sentence of deck.diff.deck) lines.push(`  ${sentence}`)
    for (const group of GROUPS) {
      const changes = deck.diff.slides.filter((s) => s.kind === group.kind)
      if (!changes.length) continue
      lines.push(`  ${group.heading}:`)
      for (const change of changes) {
        const label = slideLabel(change.number, change.title, change.slideId)
        if (change.kind === 'removed') lines.push(`    ${removedLabel(change)}`)
        else if (change.kind === 'added') lines.push(`    ${label} ${change.parts[0].replace(/^added /, '')}`)
        else lines.push(`    ${label}: ${change.parts.join('; ')}`)
      }
    }
    const threads = openThreads(deck, options)
    if (threads.length) lines.push('  Open comment threads on these slides:', ...threads.map(({ label, thread }) => `    ${threadLine(label, thread)}`))
  }
  if (options.crops?.length) {
    lines.push('', 'Pictures:')
    for (const c of options.crops) lines.push(`  ${c.deck} ${c.slideId}${c.blockId ? `#${c.blockId}` : ''} (${c.theme}): ${c.before ?? '(none)'} → ${c.after ?? '(none)'}`)
  }
  return lines.join('\n') + '\n'
}

/** The review as JSON (authors folded into each deck). */
export function reviewJson(review: Review, options: ReportOptions = {}) {
  return {
    base: review.fromRef,
    head: review.toRef,
    mergeBase: review.fromCommit,
    headCommit: review.toCommit,
    decks: review.decks.map((deck) => ({
      id: deck.id,
      title: deck.title,
      from: deck.from,
      to: deck.to,
      status: deck.status,
      authors: review.authors.get(deck.id)?.authors ?? [],
      commits: review.authors.get(deck.id)?.commits ?? 0,
      counts: deck.counts,
      deckChanges: deck.diff.deck,
      slides: deck.diff.slides,
      changes: deck.changes,
    })),
    ...(options.crops ? { crops: options.crops } : {}),
  }
}

// ------------------------------------------------------------------------------------- merge commits

function settledWords(conflict: SettledConflict, review: MergeReview): string {
  if (conflict.settled === 'ours') return `kept ${review.oursName}'s`
  if (conflict.settled === 'theirs') return `took ${review.theirsName}'s`
  return conflict.value === undefined ? 'removed' : `set to ${describe(conflict.value, conflict.kind)}`
}

function conflictLine(conflict: SettledConflict, review: MergeReview): string {
  return `${conflict.where}: ${review.oursName} ${describe(conflict.ours, conflict.kind)}, ${review.theirsName} ${describe(conflict.theirs, conflict.kind)} → ${settledWords(conflict, review)}`
}

function sideLine(side: SideReport): string {
  const who = side.commits ? `${plural(side.commits, 'commit')} by ${side.authors.join(', ')}` : 'no commit of its own'
  return `${side.name} (${short(side.commit)}) brought, in ${who}`
}

function mergeRange(review: MergeReview): string {
  return `Merge ${short(review.commit)} of ${review.theirsName} into ${review.oursName} (merge base ${short(review.base)})`
}

function revisionsLine(deck: MergeDeckReview): string {
  const r = deck.revisions
  const at = (n: number | null) => (n === null ? 'absent' : `revision ${n}`)
  return `merge base ${at(r.base)}, ${deck.ours.name} ${at(r.ours)}, ${deck.theirs.name} ${at(r.theirs)}, merged ${at(r.merged)}`
}

/** The review of a merge commit as plain text. */
export function mergeReviewText(review: MergeReview): string {
  const lines = [`${mergeRange(review)}: ${plural(review.decks.length, 'deck')} changed.`]
  for (const deck of review.decks) {
    lines.push('', `${deck.title} (${deck.id}): ${revisionsLine(deck)}`)
    for (const side of [deck.ours, deck.theirs]) {
      lines.push(`  ${sideLine(side)}:`)
      for (const change of side.changes.length ? side.changes : ['nothing in this deck']) lines.push(`    ${change}`)
    }
    lines.push(deck.conflicts.length ? `  ${plural(deck.conflicts.length, 'conflict')}, settled:` : '  No conflict: the deck merged cleanly.')
    for (const conflict of deck.conflicts) lines.push(`    ${conflictLine(conflict, review)}`)
    for (const note of deck.notes) lines.push(`  Note: ${note}`)
    lines.push(deck.byHand.length ? '  Changed in the merge commit itself:' : '  Nothing else changed in the merge commit.')
    for (const change of deck.byHand) lines.push(`    ${change}`)
  }
  return lines.join('\n') + '\n'
}

/** The review of a merge commit as Markdown (a pull-request comment). */
export function mergeReviewMarkdown(review: MergeReview): string {
  const lines = ['## Merge review', '', `${md(mergeRange(review))}: ${plural(review.decks.length, 'deck')} changed.`]
  for (const deck of review.decks) {
    lines.push('', `### ${md(deck.title)} (\`${deck.id}\`)`, '', `_${md(revisionsLine(deck))}_`)
    for (const side of [deck.ours, deck.theirs]) {
      lines.push('', `**${md(sideLine(side))}**`, '')
      for (const change of side.changes.length ? side.changes : ['nothing in this deck']) lines.push(`- ${md(change)}`)
    }
    lines.push('', deck.conflicts.length ? `**${plural(deck.conflicts.length, 'conflict')}, settled**` : '**No conflict**: the deck merged cleanly.')
    if (deck.conflicts.length) lines.push('')
    for (const conflict of deck.conflicts) lines.push(`- ${md(conflictLine(conflict, review))}`)
    if (deck.notes.length) lines.push('')
    for (const note of deck.notes) lines.push(`> ${md(note)}`)
    lines.push('', deck.byHand.length ? '**Changed in the merge commit itself**' : '_Nothing else changed in the merge commit._')
    if (deck.byHand.length) lines.push('')
    for (const change of deck.byHand) lines.push(`- ${md(change)}`)
  }
  lines.push('', '<sub>Written by `studio review --merge`. Each side is compared with the merge base; conflicts are found by merging the two sides again.</sub>')
  return lines.join('\n') + '\n'
}

export function mergeReviewJson(review: MergeReview) {
  return {
    merge: review.commit,
    subject: review.subject,
    mergeBase: review.base,
    ours: review.oursName,
    theirs: review.theirsName,
    decks: review.decks.map((deck) => ({
      id: deck.id,
      title: deck.title,
      revisions: deck.revisions,
      ours: { name: deck.ours.name, commit: deck.ours.commit, authors: deck.ours.authors, commits: deck.ours.commits, changes: deck.ours.changes, deckChanges: deck.ours.diff.deck, slides: deck.ours.diff.slides },
      theirs: { name: deck.theirs.name, commit: deck.theirs.commit, authors: deck.theirs.authors, commits: deck.theirs.commits, changes: deck.theirs.changes, deckChanges: deck.theirs.diff.deck, slides: deck.theirs.diff.slides },
      conflicts: deck.conflicts.map((c) => ({ ...c, text: conflictLine(c, review) })),
      notes: deck.notes,
      byHand: deck.byHand,
    })),
  }
}
