/**
 * The review of a merge commit (`studio review --merge <commit>`): per deck, what each side brought
 * (its changes since the merge base, in prose), the conflicts the merge met and how each was
 * settled, and anything the merge commit changed beyond that.
 *
 * Nothing is stored for it: the merge is computed again from the merge base and the two parents
 * (src/history/merge.ts is pure and deterministic), each conflict's unit is read in the merge
 * commit and compared with ours' and theirs' values, and the automatic merge with those
 * settlements applied is compared with the commit: what differs was changed by hand in the merge.
 */
import { fail } from '../core/errors.js'
import type { DeckDoc } from '../model/deck.js'
import { normalizeDoc } from '../model/normalize.js'
import type { Workspace } from '../store/workspace.js'
import { diffDecks, proseLines, type DeckDiff } from './diff.js'
import { authorsByDeck, changedDecks, REF } from './git.js'
import { statesAt } from './history.js'
import { withReader } from './index.js'
import { mergeDecks, same, valueAt, type Conflict } from './merge.js'
import { settle } from './merge-status.js'

export interface SideReport {
  /** How the side is called: the branch merged in, the branch merged into, else "first parent" / "second parent". */
  name: string
  commit: string
  authors: string[]
  commits: number
  diff: DeckDiff
  changes: string[]
}

export interface SettledConflict {
  id: string
  where: string
  kind: Conflict['kind']
  base?: unknown
  ours?: unknown
  theirs?: unknown
  /** What the merge commit holds: ours' value, theirs', or another one (`value`). */
  settled: 'ours' | 'theirs' | 'other'
  value?: unknown
}

export interface MergeDeckReview {
  id: string
  title: string
  /** Revisions at the merge base, each parent and the merge commit (null where the deck is absent). */
  revisions: { base: number | null; ours: number | null; theirs: number | null; merged: number | null }
  ours: SideReport
  theirs: SideReport
  conflicts: SettledConflict[]
  /** Slides both sides added under one id: theirs' kept under a fresh one. */
  notes: string[]
  /** Changes the merge commit made beyond the automatic merge and the settlements, in prose. */
  byHand: string[]
}

export interface MergeReview {
  commit: string
  subject: string
  base: string | null
  oursName: string
  theirsName: string
  decks: MergeDeckReview[]
}

async function git(ws: Workspace, args: string[]): Promise<string> {
  return (await ws.git.raw(args)).trim()
}

/** The branch names a merge commit's subject gives ("Merge branch 'feature' into main"). */
function sideNames(subject: string): { ours: string | null; theirs: string | null } {
  const match = /^Merge (?:remote-tracking )?branch(?:es)? '([^']+)'(?: of \S+)?(?: into (\S+))?/.exec(subject)
  return { theirs: match?.[1] ?? null, ours: match?.[2] ?? null }
}

/** What the merge commit holds for a conflict's unit. */
function unitIn(doc: DeckDoc, conflict: Conflict): unknown {
  const slideId = conflict.path[0] === 'slides' && typeof conflict.path[1] === 'string' ? conflict.path[1] : null
  if (conflict.kind === 'slide') return slideId && Object.hasOwn(doc.slides, slideId) ? doc.slides[slideId] : undefined
  if (conflict.kind === 'place') {
    for (const section of doc.manifest.sections) {
      const at = section.slides.indexOf(slideId!)
      if (at >= 0) return { section: section.id, after: at > 0 ? section.slides[at - 1] : null }
    }
    return undefined
  }
  if (conflict.kind === 'whole' && conflict.path.length === 1) {
    const { sections: _s, revision: _r, stamps: _t, ...rest } = doc.manifest
    return rest
  }
  return valueAt(doc, conflict.path)
}

function sameUnit(conflict: Conflict, actual: unknown, side: unknown): boolean {
  if (conflict.kind === 'whole' && conflict.path.length === 1 && side && typeof side === 'object') {
    const { sections: _s, revision: _r, stamps: _t, ...rest } = side as Record<string, unknown>
    return same(actual, rest)
  }
  if (conflict.kind === 'place' && side && actual) {
    // A place is the section and the slide before it; the slide before may be one the other side added since.
    const a = actual as { section: string }
    const b = side as { section: string; after: string | null }
    return same(actual, side) || (a.section === b.section && b.after === null && (actual as { after: string | null }).after === null)
  }
  return same(actual, side)
}

/** The review of one merge commit (two parents). */
export async function reviewMerge(ws: Workspace, ref: string, only?: string[]): Promise<MergeReview> {
  if (!new RegExp(REF).test(ref)) fail('invalid_input', `"${ref}" is not a git ref.`, { pointer: '/merge' })
  let commit: string
  try {
    commit = await git(ws, ['rev-parse', '--verify', '-q', `${ref}^{commit}`])
  } catch {
    fail('not_found', `git knows no commit "${ref}" in ${ws.git.gitRoot}.`, { pointer: '/merge' })
  }
  const [, p1, p2, ...more] = (await git(ws, ['rev-list', '--parents', '-n', '1', commit])).split(' ')
  if (!p1 || !p2 || more.length) fail('invalid_input', `${ref} (${commit.slice(0, 7)}) is not a merge of two commits; \`studio review --base <ref>\` reviews a branch.`, { pointer: '/merge' })
  const subject = await git(ws, ['log', '-1', '--format=%s', commit])
  let base: string | null = null
  try {
    base = (await git(ws, ['merge-base', p1, p2])).split('\n')[0] || null
  } catch {
    base = null
  }
  const names = sideNames(subject)
  // The branch a commit lies on ("main~2" names main): the merge commit's for ours, the second parent's for theirs.
  const branchOf = async (sha: string) => {
    try {
      const name = await git(ws, ['name-rev', '--name-only', '--no-undefined', '--refs=refs/heads/*', sha])
      return name.replace(/[~^].*$/, '') || null
    } catch {
      return null
    }
  }
  const oursName = names.ours ?? (await branchOf(commit)) ?? 'the first parent'
  let theirsName = names.theirs ?? (await branchOf(p2)) ?? 'the second parent'
  if (theirsName === oursName) theirsName = 'the second parent'
  const ids = new Set<string>()
  for (const [from, to] of [[base, p1], [base, p2], [p1, commit]] as const) for (const id of await changedDecks(ws, from, to)) ids.add(id)
  const wanted = [...ids].filter((id) => !only || only.includes(id)).sort()
  const oursAuthors = await authorsByDeck(ws, base, p1)
  const theirsAuthors = await authorsByDeck(ws, base, p2)
  const decks = await withReader(ws, async (reader) => {
    const out: MergeDeckReview[] = []
    for (const id of wanted) {
      const folder = ws.gitPath(`decks/${id}`)
      const [o, t, m, b = null] = await statesAt(reader, folder, [p1, p2, commit, ...(base ? [base] : [])])
      const side = (name: string, sha: string, doc: DeckDoc | null, authors: Map<string, { authors: string[]; commits: number }>): SideReport => {
        const diff = diffDecks(b, doc)
        return { name, commit: sha, authors: authors.get(id)?.authors ?? [], commits: authors.get(id)?.commits ?? 0, diff, changes: proseLines(diff) }
      }
      const conflicts: SettledConflict[] = []
      const notes: string[] = []
      let byHand: string[] = []
      if (o && t && m) {
        const auto = mergeDecks(b, o, t, { now: m.manifest.stamps?.updatedAt ?? '', folder: `decks/${id}` })
        let settledDoc = normalizeDoc(auto.doc)
        for (const conflict of auto.conflicts) {
          const actual = unitIn(m, conflict)
          const settled = sameUnit(conflict, actual, conflict.ours) ? 'ours' : sameUnit(conflict, actual, conflict.theirs) ? 'theirs' : 'other'
          conflicts.push({
            id: conflict.id, where: conflict.where, kind: conflict.kind,
            ...(conflict.base !== undefined ? { base: conflict.base } : {}), ...(conflict.ours !== undefined ? { ours: conflict.ours } : {}), ...(conflict.theirs !== undefined ? { theirs: conflict.theirs } : {}),
            settled, ...(settled === 'other' && actual !== undefined ? { value: actual } : {}),
          })
          try {
            settledDoc = normalizeDoc(settle(settledDoc, conflict, settled === 'ours' ? conflict.ours : settled === 'theirs' ? conflict.theirs : actual))
          } catch {
            // a unit the commit no longer has: the by-hand comparison says what happened to it
          }
        }
        notes.push(...auto.notes)
        byHand = proseLines(diffDecks(settledDoc, m))
      } else if (m && (o || t)) {
        byHand = proseLines(diffDecks((o ?? t)!, m))
      }
      out.push({
        id,
        title: (m ?? o ?? t ?? b)!.manifest.title,
        revisions: { base: b?.manifest.revision ?? null, ours: o?.manifest.revision ?? null, theirs: t?.manifest.revision ?? null, merged: m?.manifest.revision ?? null },
        ours: side(oursName, p1, o, oursAuthors),
        theirs: side(theirsName, p2, t, theirsAuthors),
        conflicts,
        notes,
        byHand,
      })
    }
    return out
  })
  return { commit, subject, base, oursName, theirsName, decks }
}
