import { defineAction } from '../../core/action.js'
import { bool, BR, int, obj, opt, outline, str, Themes } from '../../model/schema.js'

const revision = (description: string) => opt(int({ minimum: 0, description }))

export const diffRun = defineAction({
  id: 'diff.run',
  label: 'Diff revisions',
  doc: 'Describes the mutations between two revisions in prose; render writes before and after crops of every touched block.',
  group: 'version',
  milestone: 'M3',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    from: revision('Older revision; with staged omitted, the last named version.'),
    to: revision('Newer revision; the current one when absent.'),
    staged: opt(bool({ description: 'Diff from the newest named version below the current revision.' })),
    render: opt(bool({ description: 'Write before and after crops of every touched block.' })),
    themes: opt({ ...Themes, description: 'Themes of the crops; light when absent.' }),
    out: opt(str({ default: '.studio/diff', description: 'Crop directory; .studio/diff when absent.' })),
  }),
  output: outline({ from: 'The older revision.', to: 'The newer revision.', changes: 'The mutation list in prose.', crops: 'Before and after crop paths, with render.' }),
  cli: 'diff <from> <to> --staged --render --theme <themes> --out <out>',
  mcp: 'deck_diff',
  example: { from: 2, to: 5 },
})

export const versionSave = defineAction({
  id: 'version.save',
  label: 'Save version',
  doc: 'Saves a named version at the current revision. No baseRevision.',
  group: 'version',
  milestone: 'M3',
  mutates: true,
  transports: 'CMHP',
  deck: { kind: 'current' },
  input: obj({ note: str({ minLength: 1, maxLength: 500, description: 'What this version is.' }) }),
  output: outline({ version: 'The saved version: n, author, note, revision.' }),
  cli: 'version save -m <note>',
  mcp: 'deck_version_save',
  example: { note: 'Sent to the board' },
})

export const versionList = defineAction({
  id: 'version.list',
  label: 'List versions',
  doc: 'Lists the saved versions with author, note and revision.',
  group: 'version',
  milestone: 'M3',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: outline({ versions: 'Saved versions: n, author, note, revision, time.', revision: 'The current revision.' }),
  cli: 'version list',
  mcp: 'deck_version_list',
  example: {},
})

export const versionRestore = defineAction({
  id: 'version.restore',
  label: 'Restore version',
  doc: 'Restores a named version as a new mutation, so it is undoable and visible in History.',
  group: 'version',
  milestone: 'M3',
  mutates: true,
  transports: 'CMHP',
  input: obj({ n: int({ minimum: 1, description: 'The version number.' }), baseRevision: BR }),
  output: outline({ restored: 'The version restored.', revision: 'The new revision.' }),
  cli: 'version restore <n>',
  mcp: 'deck_version_restore',
  example: { n: 1, baseRevision: 3 },
})

export const versionDiff = defineAction({
  id: 'version.diff',
  label: 'Diff versions',
  doc:
    'Lists the mutations between two revisions grouped by touched block and by author. With staged and no from, from is the last named version; to defaults to the current revision.',
  group: 'version',
  milestone: 'M3',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    from: revision('Older revision.'),
    to: revision('Newer revision; the current one when absent.'),
    staged: opt(bool({ description: 'From the last named version when from is absent.' })),
  }),
  output: outline({ from: 'The older revision.', to: 'The newer revision.', byBlock: 'Mutations grouped by touched block.', byAuthor: 'Mutations grouped by author.' }),
  cli: 'version diff <from> <to> --staged',
  mcp: 'deck_version_diff',
  example: { staged: true },
})
