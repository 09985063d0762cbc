/**
 * A deck's activity feed (activity.list). What commits record is read from git history, never kept
 * twice: every studio commit carries its Studio-Action trailer (src/core/engine.ts), and the action
 * names the kind. What commits nothing (an export) is appended to `.studio/activity.jsonl` by the
 * action that did it (recordActivity).
 */
import { randomBytes } from 'node:crypto'
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Workspace } from '../store/workspace.js'
import type { LogEntry } from './git.js'

export const ACTIVITY_KINDS = ['version', 'comment', 'share', 'request', 'role', 'rename', 'restore', 'named', 'export', 'import', 'trash'] as const
export type ActivityKind = (typeof ACTIVITY_KINDS)[number]

export interface ActivityRecord {
  id: string
  kind: ActivityKind
  actor: string
  at: string
  summary: string
  details?: Record<string, unknown>
}

const BY_ACTION = new Map<string, ActivityKind>([
  ['deck.rename', 'rename'],
  ['deck.restore', 'restore'],
  ['version.restore', 'restore'],
  ['version.save', 'named'],
  ['deck.trash', 'trash'],
  ['import.run', 'import'],
  ['share.requestAccess', 'request'],
  ['share.respond', 'request'],
  ['share.setRole', 'role'],
  ['share.transferOwnership', 'role'],
  ['share.acceptOwnership', 'role'],
])

/** The kind of a commit's action: comment.* and share.* by group, the named ones above, any other write a version. */
export function kindOfAction(action: string | null): ActivityKind {
  if (!action) return 'version'
  const named = BY_ACTION.get(action)
  if (named) return named
  if (action.startsWith('comment.')) return 'comment'
  if (action.startsWith('share.')) return 'share'
  return 'version'
}

function fromCommit(entry: LogEntry): ActivityRecord {
  const kind = kindOfAction(entry.action)
  const what = entry.action ?? 'a git commit'
  const revision = entry.trailerRevision
  return {
    id: entry.commit.slice(0, 12),
    kind,
    actor: entry.author,
    at: new Date(entry.at).toISOString(),
    summary: `${entry.author}: ${what}${revision !== null && kind !== 'comment' ? ` (revision ${revision})` : ''}`,
    details: { action: entry.action, commit: entry.commit, ...(revision !== null ? { revision } : {}) },
  }
}

const logFile = (ws: Workspace) => join(ws.stateDir, 'activity.jsonl')

/** Records an event that commits nothing (an export) in the deck's feed: one appended line. */
export async function recordActivity(ws: Workspace, record: { deckId: string; kind: ActivityKind; actor: string; summary: string; details?: Record<string, unknown> }, clock: () => number = Date.now): Promise<void> {
  if (ws.embedded) return
  await mkdir(ws.stateDir, { recursive: true })
  const line = { id: `a-${randomBytes(6).toString('hex')}`, at: new Date(clock()).toISOString(), ...record }
  // On the hosted store the feed is a row every instance shares (src/store/state-file.ts); a checkout appends.
  if (ws.store?.engine === 'hosted') {
    const { updateStateFile } = await import('../store/state-file.js')
    await updateStateFile(ws, 'activity.jsonl', 'activity', (text) => ({ text: (text ?? '') + JSON.stringify(line) + '\n', answer: undefined }))
  } else await appendFile(logFile(ws), JSON.stringify(line) + '\n')
}

async function recorded(ws: Workspace, deckId: string): Promise<ActivityRecord[]> {
  let text = ''
  try {
    text = await readFile(logFile(ws), 'utf8')
  } catch {
    return []
  }
  const out: ActivityRecord[] = []
  const kinds = new Set<string>(ACTIVITY_KINDS)
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const r = JSON.parse(line) as Record<string, unknown>
      if (r.deckId !== deckId || typeof r.id !== 'string' || typeof r.kind !== 'string' || !kinds.has(r.kind) || typeof r.actor !== 'string' || typeof r.at !== 'string' || typeof r.summary !== 'string') continue
      const details = r.details && typeof r.details === 'object' && !Array.isArray(r.details) ? { details: r.details as Record<string, unknown> } : {}
      out.push({ id: r.id, kind: r.kind as ActivityKind, actor: r.actor, at: r.at, summary: r.summary, ...details })
    } catch {
      // A line cut by a crash is skipped.
    }
  }
  return out
}

/** The deck's activity, newest first: its commits and its recorded events, filtered. */
export async function listActivity(ws: Workspace, deckId: string, filter: { since?: number; kinds?: ActivityKind[]; limit?: number }): Promise<ActivityRecord[]> {
  const { deckLog } = await import('./git.js')
  const [commits, events] = await Promise.all([ws.embedded ? [] : deckLog(ws, deckId), recorded(ws, deckId)])
  const wanted = filter.kinds ? new Set(filter.kinds) : undefined
  return [...commits.map(fromCommit), ...events]
    .filter((r) => (!wanted || wanted.has(r.kind)) && (filter.since === undefined || Date.parse(r.at) > filter.since))
    .sort((a, b) => (a.at > b.at ? -1 : a.at < b.at ? 1 : 0))
    .slice(0, filter.limit ?? 100)
}
