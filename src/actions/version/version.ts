import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { defineAction, type ActionContext, type CliParsed } from '../../core/action.js'
import type { Workspace } from '../../store/workspace.js'
import { fail, StudioError } from '../../core/errors.js'
import type { Appearance } from '../../render/paint.js'
import type { DeckDoc, Manifest, Version } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { arr, BlockId, Box, FilePath, ref as resultRef, bool, BR, DeckId, int, nullable, obj, oneOf, openObj, opt, SlideId, str, Themes } from '../../model/schema.js'
import { CurrentRevision, result, resultOf, Revision, written } from '../../model/results.js'
import { compareRefs, diffRevisions, filesAt, loadHistory, resolveRange, statesAt, withReader, type RefComparison, type RevisionStates } from '../../history/index.js'
import { diffDecks, proseLines } from '../../history/diff.js'
import { RANGE, REF, splitRange } from '../../history/git.js'
import { groupByAuthor, groupByTarget, summarize, type AuthorGroup, type BlockGroup } from '../../history/mutations.js'
import { textconv } from '../../history/textconv.js'
import { WITH_BODY_SLIDE, WITH_VERSION } from '../given.js'

const revision = (description: string) => opt(int({ minimum: 0, description }))
const ref = (description: string) => opt(str({ pattern: REF, description }))

const SlideChange = obj({
  kind: oneOf(['added', 'removed', 'moved', 'changed']),
  slideId: SlideId,
  number: int({ minimum: 1, description: 'Position in the deck: in the newer state, or in the older one for a removed slide.' }),
  title: str(),
  parts: arr(str(), { description: 'The clauses, in reading order.' }),
  blocks: arr(BlockId, { description: 'Ids of the blocks this change touched.' }),
})
const ChangeCounts = obj({ added: int({ minimum: 0 }), removed: int({ minimum: 0 }), moved: int({ minimum: 0 }), changed: int({ minimum: 0 }) }, { description: 'Slides added, removed, moved, changed.' })
const FromVersion = opt(obj({ n: int({ minimum: 1 }), note: str() }, { description: 'The named version the range starts at, when it starts at one.' }))
const Prose = {
  changes: arr(str(), { description: 'The mutation list in prose, one sentence per deck change or slide.' }),
  text: str({ description: "The sentences, one per line ('No changes.' when there is none)." }),
}
const Crop = obj({
  deck: DeckId,
  slideId: SlideId,
  blockId: { ...nullable(BlockId), description: 'The block cropped; null for a whole-slide thumbnail (a slide added, removed, or changed as a whole).' },
  kind: oneOf(['added', 'removed', 'moved', 'changed']),
  theme: oneOf(['light', 'dark'], { description: 'The appearance.' }),
  before: { ...nullable(str()), description: 'The before picture (workspace-relative PNG); null where the slide did not exist.' },
  after: { ...nullable(str()), description: 'The after picture; null where the slide no longer exists.' },
  box: Box,
})
const Pictures = {
  crops: opt(arr(Crop, { description: 'With render: before and after crops of every touched block, and thumbnails of slides added or removed.' })),
}
const MutationOf = { revision: int({ minimum: 0 }), action: { ...nullable(str()), description: 'The action id of the commit, when it names one.' }, at: str({ description: 'Commit time.' }) }

interface DiffInput {
  from?: number
  to?: number
  staged?: boolean
  render?: boolean
  themes?: ('light' | 'dark')[]
  out?: string
  fromRef?: string
  toRef?: string
  gitRange?: string
  textconv?: string
}

/** `studio diff main HEAD`: an argument that is not a revision number is a git ref. */
function refArgs(parsed: CliParsed): Record<string, unknown> {
  const input = { ...parsed.input }
  for (const [field, refField] of [['from', 'fromRef'], ['to', 'toRef']] as const) {
    const value = input[field]
    if (typeof value === 'string' && !/^\d+$/.test(value)) {
      input[refField] ??= value
      delete input[field]
    }
  }
  return input
}

/** The deck a refs diff compares: the one the call names or the default; every changed deck when the workspace has several and no default. */
async function refDecks(ctx: ActionContext): Promise<string[] | undefined> {
  try {
    return [await ctx.deckId()]
  } catch (error) {
    if (error instanceof StudioError && error.code === 'invalid_input' && error.extra.path === 'deck') return undefined
    if (error instanceof StudioError && error.code === 'not_found' && !(await ctx.ws.deckIds()).length) return undefined
    throw error
  }
}

async function diffRefs(ctx: ActionContext, input: DiffInput) {
  for (const field of ['from', 'to', 'staged'] as const) {
    if (input[field] !== undefined) fail('invalid_input', `${field} compares revisions; it cannot be combined with git refs.`, { pointer: `/${field}` })
  }
  let fromRef = input.fromRef
  let toRef = input.toRef
  let mergeBase = false
  if (input.gitRange !== undefined) {
    if (fromRef !== undefined || toRef !== undefined) fail('invalid_input', 'gitRange names both refs; give it alone.', { pointer: '/gitRange' })
    ;({ from: fromRef, to: toRef, mergeBase } = splitRange(input.gitRange))
  }
  if (fromRef === undefined) fail('invalid_input', 'toRef needs fromRef (the older ref).', { pointer: '/fromRef' })
  const comparison = await compareRefs(ctx.ws, {
    fromRef,
    toRef: toRef ?? 'HEAD',
    mergeBase,
    decks: await refDecks(ctx),
    fromPointer: input.gitRange !== undefined ? '/gitRange' : '/fromRef',
    toPointer: input.gitRange !== undefined ? '/gitRange' : '/toRef',
  })
  const several = comparison.decks.length > 1
  const changes = comparison.decks.flatMap((d) => d.changes.map((line) => (several ? `${d.id}: ${line}` : line)))
  const crops = input.render ? await refCrops(ctx.ws, comparison, input.themes ?? ['light'], await cropDir(ctx, input.out)) : undefined
  return {
    from: comparison.fromRef,
    to: comparison.toRef,
    fromCommit: comparison.fromCommit,
    toCommit: comparison.toCommit,
    decks: comparison.decks.map((d) => ({ id: d.id, title: d.title, from: d.from, to: d.to, status: d.status, changes: d.changes, counts: d.counts, slides: d.diff.slides })),
    changes,
    text: changes.length ? changes.join('\n') : 'No changes.',
    ...(crops ? { crops } : {}),
  }
}

/** The folder crops go to: `out` (inside the workspace off the command line), else .studio/diff in the workspace. */
async function cropDir(ctx: ActionContext, out: string | undefined): Promise<string> {
  return out === undefined ? join(ctx.ws.root, '.studio', 'diff') : (await ctx.outputPath(out, '/out')).abs
}

/** Crops of every deck a refs comparison changed. */
export async function refCrops(ws: Workspace, comparison: RefComparison, themes: Appearance[], outDir: string) {
  const { reviewCrops } = await import('../../render/crops.js')
  const crops = []
  for (const deck of comparison.decks) {
    if (deck.status === 'unchanged') continue
    crops.push(...(await reviewCrops(ws, deck.id, { doc: deck.before, commit: comparison.fromCommit }, { doc: deck.after, commit: comparison.toCommit }, deck.diff.slides, themes, outDir)))
  }
  return crops
}

export const diffRun = defineAction({
  id: 'diff.run',
  label: 'Diff revisions',
  doc:
    'Describes the changes between two revisions in prose ("Slide 4 \'Pricing\': title changed from \'Plans\' to \'Pricing\'; block b3 moved 40 px right"). ' +
    'Without from: from the newest named version below to, else the oldest revision. fromRef/toRef (or gitRange A..B, A...B) compare git refs instead ' +
    '(`studio diff main HEAD`). textconv prints the readable text of one deck JSON file for git\'s diff driver (command line only). ' +
    'render writes before and after crops of every touched block (whole-slide thumbnails for slides added or removed) into out (.studio/diff), per theme.',
  group: 'version',
  milestone: 'M3',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    from: revision('Older revision; with staged omitted, the last named version.'),
    to: revision('Newer revision; the current one when absent.'),
    staged: opt(bool({ description: 'Diff from the newest named version below the current revision.' })),
    render: opt(bool({ description: 'Write before and after crops of every touched block, and thumbnails of slides added or removed.' })),
    themes: opt({ ...Themes, description: 'Themes of the crops; light when absent.' }),
    out: opt({ ...FilePath('Crop directory; .studio/diff in the workspace when absent (over HTTP and MCP: inside the workspace).'), default: '.studio/diff' }),
    fromRef: ref('Older git ref (branch, tag, sha) instead of a revision; `studio diff main HEAD` fills it.'),
    toRef: ref('Newer git ref; HEAD when absent.'),
    gitRange: opt(str({ pattern: RANGE, description: 'A git range: A..B compares A with B, A...B compares their merge base with B.' })),
    textconv: opt(str({ minLength: 1, description: "A deck JSON file to print as readable text (git's diff driver; command line only)." })),
  }),
  output: resultOf(
    [
      obj(
        {
          deck: DeckId,
          from: int({ minimum: 0, description: 'The older revision.' }),
          to: int({ minimum: 0, description: 'The newer revision.' }),
          fromVersion: FromVersion,
          ...Prose,
          counts: ChangeCounts,
          slides: arr(SlideChange, { description: 'Per changed slide.' }),
          ...Pictures,
        },
        { description: 'Two revisions of one deck.' },
      ),
      obj(
        {
          from: str({ description: 'The older git ref.' }),
          to: str({ description: 'The newer git ref.' }),
          fromCommit: { ...nullable(str()), description: 'The commit compared from (the merge base for A...B).' },
          toCommit: str(),
          decks: arr(
            obj({
              id: DeckId,
              title: str(),
              from: { ...nullable(int({ minimum: 0 })), description: "The deck's revision at the older ref; null where it does not exist there." },
              to: { ...nullable(int({ minimum: 0 })), description: "The deck's revision at the newer ref; null where it does not exist there." },
              status: oneOf(['added', 'removed', 'changed', 'unchanged']),
              changes: arr(str()),
              counts: ChangeCounts,
              slides: arr(SlideChange),
            }),
            { description: 'The comparison per deck.' },
          ),
          ...Prose,
          ...Pictures,
        },
        { description: 'Two git refs (fromRef, toRef or gitRange).' },
      ),
      obj({ file: str({ description: 'The deck JSON file read.' }), text: str({ description: 'Its readable text.' }) }, { description: 'textconv (command line only).' }),
    ],
    'Revisions compared, git refs compared, or (textconv) one file as readable text.',
  ),
  cli: 'diff <from> <to> --staged --render --theme <themes> --out <out>',
  annotations: { writes: 'on request', idempotent: true },
  mcp: 'deck_diff',
  given: WITH_BODY_SLIDE,
  example: { from: 0, to: 1 },
  cliInput: refArgs,
  run: async (ctx, input: DiffInput) => {
    if (input.textconv !== undefined) {
      if (ctx.transport !== 'C') fail('refused', 'textconv reads a local file: it runs on the command line only.', { pointer: '/textconv' })
      const file = resolve(input.textconv)
      if (!existsSync(file)) fail('not_found', `No file ${file}.`, { pointer: '/textconv' })
      return { file, text: textconv(await readFile(file, 'utf8')) }
    }
    if (input.fromRef !== undefined || input.toRef !== undefined || input.gitRange !== undefined) return diffRefs(ctx, input)
    const doc = await ctx.target()
    let states: RevisionStates | undefined
    const result = await diffRevisions(ctx.ws, doc, input, (s) => (states = s))
    if (!input.render || !states) return result
    const { reviewCrops } = await import('../../render/crops.js')
    const crops = await reviewCrops(ctx.ws, doc.manifest.id, { doc: states.before, commit: states.fromCommit }, { doc: states.after, commit: states.toCommit }, result.slides, input.themes ?? ['light'], await cropDir(ctx, input.out))
    return { ...result, crops }
  },
  human: (result: { text: string; file?: string; crops?: { before: string | null; after: string | null }[] }) =>
    result.file !== undefined
      ? result.text.replace(/\n$/, '')
      : [result.text, ...(result.crops ?? []).map((c) => `  ${c.before ?? '(none)'} → ${c.after ?? '(none)'}`)].join('\n'),
})

export const versionSave = defineAction<{ note: string }, any>({
  id: 'version.save',
  label: 'Save version',
  doc: 'Saves a named version at the current revision: appends n, author, note, revision and time to the version log (one commit). No baseRevision.',
  group: 'version',
  milestone: 'M3',
  mutates: true,
  transports: 'CMHP',
  deck: { kind: 'current' },
  input: obj({ note: str({ minLength: 1, maxLength: 500, description: 'What this version is.' }) }),
  output: written({ version: { ...resultRef('Version'), description: 'The saved version.' }, revision: { ...Revision, description: 'The new revision (the save is a write).' } }),
  cli: 'version save -m <note>',
  mcp: 'deck_version_save',
  example: { note: 'Sent to the board' },
  run: async (ctx, input: { note: string }) => {
    const doc = cloneDoc(await ctx.target())
    const version: Version = {
      n: Math.max(0, ...doc.versions.map((v) => v.n)) + 1,
      author: ctx.principal.author,
      note: input.note,
      revision: doc.manifest.revision,
      at: new Date().toISOString(),
    }
    doc.versions.push(version)
    ctx.stage(doc.manifest.id, doc)
    return (docs: Map<string, DeckDoc | null>) => ({ version, revision: docs.get(doc.manifest.id)!.manifest.revision })
  },
  human: (r: { version: Version; revision: number }) => `Saved version ${r.version.n} (revision ${r.version.revision}): ${r.version.note}`,
})

export const versionList = defineAction({
  id: 'version.list',
  label: 'List versions',
  doc: 'Lists the saved versions with author, note, revision and time, and the current revision.',
  group: 'version',
  milestone: 'M3',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: result({ versions: arr(resultRef('Version'), { description: 'Saved versions, oldest first.' }), revision: CurrentRevision }),
  cli: 'version list',
  mcp: 'deck_version_list',
  example: {},
  run: async (ctx) => {
    const doc = await ctx.target()
    return { versions: doc.versions, revision: doc.manifest.revision }
  },
  human: (r: { versions: Version[]; revision: number }) =>
    [
      ...(r.versions.length ? r.versions.map((v) => `${v.n}  r${v.revision}  ${v.at.slice(0, 16).replace('T', ' ')}  ${v.author}  ${v.note}`) : ['No saved versions.']),
      `Current revision: ${r.revision}`,
    ].join('\n'),
})

export const versionRestore = defineAction<{ n: number }, any>({
  id: 'version.restore',
  label: 'Restore version',
  doc:
    "Restores a named version as a new mutation (undoable, visible in history): the deck's title, settings, sections and slides become those of the version's revision, " +
    'slides added since are removed and removed ones come back (with assets missing since). The version log stays as it is now.',
  group: 'version',
  milestone: 'M3',
  mutates: true,
  transports: 'CMHP',
  input: obj({ n: int({ minimum: 1, description: 'The version number.' }), baseRevision: BR }),
  output: written({
    restored: obj({ n: int({ minimum: 1 }), note: str(), revision: int({ minimum: 0 }) }, { description: 'The version restored.' }),
    changes: arr(str(), { description: 'What the restore changed, in prose.' }),
  }),
  cli: 'version restore <n>',
  annotations: { destructive: true },
  mcp: 'deck_version_restore',
  given: WITH_VERSION,
  example: { n: 1, baseRevision: 2 },
  run: async (ctx, input: { n: number }) => {
    const current = await ctx.target()
    const id = current.manifest.id
    const version = current.versions.find((v) => v.n === input.n)
    if (!version) fail('not_found', `Deck "${id}" has no version ${input.n}${current.versions.length ? ` (versions: ${current.versions.map((v) => v.n).join(', ')})` : ''}.`, { pointer: '/n' })
    const folder = ctx.ws.gitPath(`decks/${id}`)
    const restored = await withReader(ctx.ws, async (reader) => {
      const history = await loadHistory(ctx.ws, reader, id)
      const commit = history.commitOf(version.revision)
      if (!commit) fail('not_found', `Version ${version.n} names revision ${version.revision}, which is not in this repository's history.`, { pointer: '/n' })
      const [state] = await statesAt(reader, folder, [commit])
      if (!state) fail('not_found', `Deck "${id}" has no deck.json at revision ${version.revision}.`, { pointer: '/n' })
      // Assets the version used that are gone since come back; newer assets stay.
      const assets = await filesAt(reader, commit, `${folder}/assets`)
      const missing = [...assets].filter(([rel]) => !existsSync(join(ctx.ws.deckDir(id), 'assets', rel)))
      const objects = await reader.read(missing.map(([, sha]) => sha))
      missing.forEach(([rel], i) => {
        if (objects[i]) ctx.stageFile(`decks/${id}/assets/${rel}`, objects[i]!.data)
      })
      return state
    })
    const manifest: Manifest = { ...restored.manifest, id, revision: current.manifest.revision, stamps: current.manifest.stamps }
    delete manifest.trashedAt
    if (current.manifest.trashedAt) manifest.trashedAt = current.manifest.trashedAt
    const next: DeckDoc = { manifest, slides: restored.slides, versions: structuredClone(current.versions) }
    const changes = proseLines(diffDecks(current, next))
    ctx.stage(id, next)
    return (docs: Map<string, DeckDoc | null>) => ({
      restored: { n: version.n, note: version.note, revision: version.revision },
      changes,
      revision: docs.get(id)!.manifest.revision,
    })
  },
  human: (r: { restored: { n: number; note: string; revision: number }; changes: string[]; revision: number }) =>
    [`Restored version ${r.restored.n} (${r.restored.note}, revision ${r.restored.revision}) as revision ${r.revision}.`, ...r.changes.map((c) => `  ${c}`)].join('\n'),
})

interface VersionDiffResult {
  deck: string
  from: number
  to: number
  count: number
  byBlock: BlockGroup[]
  byAuthor: AuthorGroup[]
}

export const versionDiff = defineAction({
  id: 'version.diff',
  label: 'Diff versions',
  doc:
    'Lists the mutations between two revisions (each: revision, action, author, time, and the deck parts, slides and blocks it touched) grouped by touched block and by author. ' +
    'With staged and no from, from is the newest named version below to; without either, the oldest revision. to defaults to the current revision.',
  group: 'version',
  milestone: 'M3',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    from: revision('Older revision.'),
    to: revision('Newer revision; the current one when absent.'),
    staged: opt(bool({ description: 'From the last named version when from is absent.' })),
  }),
  output: result({
    deck: DeckId,
    from: int({ minimum: 0, description: 'The older revision.' }),
    to: int({ minimum: 0, description: 'The newer revision.' }),
    fromVersion: FromVersion,
    count: int({ minimum: 0, description: 'The number of mutations.' }),
    byBlock: arr(
      obj({
        target: str({ description: 'deck, versions, a slide id, or <slideId>#<blockId>.' }),
        slideId: opt(SlideId),
        blockId: opt(BlockId),
        title: opt(str({ description: "The slide's title where the target is a slide or a block on one." })),
        mutations: arr(obj({ ...MutationOf, author: str() })),
      }),
      { description: 'Mutations grouped by touched target.' },
    ),
    byAuthor: arr(obj({ author: str(), mutations: arr(obj({ ...MutationOf, touched: arr(str(), { description: 'The targets it touched.' }) })) }), {
      description: 'Mutations grouped by author, each with the targets it touched.',
    }),
  }),
  cli: 'version diff <from> <to> --staged',
  mcp: 'deck_version_diff',
  example: { staged: true },
  run: async (ctx, input: { from?: number; to?: number; staged?: boolean }) => {
    const doc = await ctx.target()
    return withReader(ctx.ws, async (reader) => {
      const history = await loadHistory(ctx.ws, reader, doc.manifest.id)
      const range = resolveRange(doc, history, input, Boolean(input.staged))
      const summaries = await summarize(reader, history.between(range.from, range.to))
      return {
        deck: doc.manifest.id,
        from: range.from,
        to: range.to,
        ...(range.fromVersion ? { fromVersion: { n: range.fromVersion.n, note: range.fromVersion.note } } : {}),
        count: summaries.length,
        byBlock: groupByTarget(summaries, doc),
        byAuthor: groupByAuthor(summaries),
      }
    })
  },
  human: (r: VersionDiffResult) => {
    const who = (m: { revision: number; action: string | null; author?: string }) => `r${m.revision} ${m.action ?? 'edit'}${m.author ? ` (${m.author})` : ''}`
    const lines = [`${r.deck}: ${r.count} mutation${r.count === 1 ? '' : 's'} from revision ${r.from} to ${r.to}`]
    if (r.byBlock.length) lines.push('By block:')
    for (const g of r.byBlock) lines.push(`  ${g.target}${g.title ? ` '${g.title}'` : ''}: ${g.mutations.map(who).join(', ')}`)
    if (r.byAuthor.length) lines.push('By author:')
    for (const g of r.byAuthor) lines.push(`  ${g.author}: ${g.mutations.map((m) => `${who(m)} ${m.touched.join(' ') || '-'}`).join('; ')}`)
    return lines.join('\n')
  },
})
