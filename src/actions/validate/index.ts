import type { Action } from '../../core/action.js'
import { defineAction } from '../../core/action.js'
import { StudioError } from '../../core/errors.js'
import type { DeckDoc } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { documentIssues, type Issue } from '../../model/check.js'
import { normalizeDoc } from '../../model/normalize.js'
import { arr, bool, FilePath, nullable, obj, openObj, opt, ref, str } from '../../model/schema.js'
import { result } from '../../model/results.js'
import { readDeckFolder } from '../../store/decks.js'
import { plainDoc } from '../../store/deck-state.js'

/** Every issue of a deck document: each part against the model, and the cross-references. */
export async function deckIssues(doc: DeckDoc) {
  return documentIssues(doc)
}

export const validateRun = defineAction({
  id: 'validate.run',
  label: 'Validate a deck',
  doc: 'Checks a deck folder (the current deck by default) against the model: schema, section references, unique ids. Result: the issues, each with a JSON pointer into the document, and the normalized document. On the CLI the folder may be anywhere; over HTTP and MCP it must lie inside the workspace (symbolic links followed), else 403.',
  group: 'validate',
  milestone: 'M1',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    path: opt(FilePath('A deck directory; the current deck when absent. Over HTTP and MCP it is relative to the workspace root and must stay inside the workspace.')),
  }),
  output: result(
    {
      valid: bool({ description: 'true when there is no issue.' }),
      issues: arr(obj({ pointer: str({ description: 'A JSON pointer into the document.' }), message: str(), path: opt(str({ description: 'The validator path.' })) })),
      document: {
        ...nullable(openObj('The normalized document as read: manifest, slides, versions (it may break the model; see issues).')),
        description: 'The normalized document; null when the folder cannot be read or normalized.',
      },
    },
    { if: { properties: { valid: { const: true } } }, then: { properties: { document: ref('DeckDocument') } } },
  ),
  cli: 'validate <path>',
  mcp: 'deck_validate',
  example: {},
  run: async (ctx, input: { path?: string }) => {
    let doc: DeckDoc
    // Outside the try: a path leading out of the workspace over a network transport is refused (403), not an issue.
    const folder = input.path === undefined ? undefined : await ctx.inputPath(input.path, '/path')
    try {
      // Every slide read here: a slide that is not JSON is an issue, not a failure of the call.
      doc = folder ? await readDeckFolder(folder.abs, folder.shown) : plainDoc(await ctx.target())
    } catch (error) {
      if (error instanceof StudioError) return { valid: false, issues: [{ pointer: '/', message: error.message }], document: null }
      throw error
    }
    const issues = await deckIssues(doc)
    let document: DeckDoc | null = null
    try {
      document = normalizeDoc(cloneDoc(doc))
    } catch {
      document = null
    }
    return { valid: issues.length === 0, issues, document }
  },
  human: (r: { valid: boolean; issues: Issue[] }) => (r.valid ? 'Valid.' : r.issues.map((i) => `${i.pointer}  ${i.message}`).join('\n')),
  reportsErrors: (r: { valid: boolean }) => !r.valid,
})

export default [validateRun] as Action[]
