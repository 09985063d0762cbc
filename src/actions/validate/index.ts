import { resolve } from 'node:path'
import type { Action } from '../../core/action.js'
import { defineAction } from '../../core/action.js'
import { StudioError } from '../../core/errors.js'
import { validatorFor } from '../../core/validate.js'
import { DeckDocSchema, type DeckDoc } from '../../model/deck.js'
import { normalizeDoc } from '../../model/normalize.js'
import { obj, opt, outline, str } from '../../model/schema.js'
import { readDeckFolder } from '../../store/decks.js'

interface Issue {
  pointer: string
  message: string
}

/** Every issue of a deck document: schema errors (all of them) and cross-references the schema cannot see. */
export async function deckIssues(doc: DeckDoc): Promise<Issue[]> {
  const issues: Issue[] = []
  const validate = await validatorFor('model.deck.all', DeckDocSchema)
  if (!validate(doc)) for (const e of validate.errors ?? []) issues.push({ pointer: e.instancePath || '/', message: e.message ?? 'invalid' })
  const placed = new Map<string, number>()
  doc.manifest.sections?.forEach((section, i) =>
    section.slides?.forEach((id, j) => {
      if (!doc.slides[id]) issues.push({ pointer: `/manifest/sections/${i}/slides/${j}`, message: `names slide "${id}", which has no file` })
      placed.set(id, (placed.get(id) ?? 0) + 1)
    }),
  )
  for (const [id, slide] of Object.entries(doc.slides)) {
    if (!placed.has(id)) issues.push({ pointer: `/slides/${id}`, message: 'is in no section' })
    if ((placed.get(id) ?? 0) > 1) issues.push({ pointer: `/slides/${id}`, message: 'appears in more than one place in the sections' })
    const seen = new Set<string>()
    slide.blocks?.forEach((block, k) => {
      if (seen.has(block.id)) issues.push({ pointer: `/slides/${id}/blocks/${k}/id`, message: `block id "${block.id}" is used twice on the slide` })
      seen.add(block.id)
    })
  }
  return issues
}

export const validateRun = defineAction({
  id: 'validate.run',
  label: 'Validate a deck',
  doc: 'Checks a deck folder (the current deck by default) against the model: schema, section references, unique ids. Result: the issues, each with a JSON pointer into the document, and the normalized document.',
  group: 'validate',
  milestone: 'M1',
  mutates: false,
  transports: 'CMHP',
  input: obj({ path: opt(str({ minLength: 1, description: 'A deck directory; the current deck when absent.' })) }),
  output: outline({ valid: 'true when there is no issue', issues: 'pointer and message per issue', document: 'the normalized document' }),
  cli: 'validate <path>',
  mcp: 'deck_validate',
  example: {},
  run: async (ctx, input: { path?: string }) => {
    let doc: DeckDoc
    try {
      doc = input.path ? await readDeckFolder(resolve(input.path)) : await ctx.target()
    } catch (error) {
      if (error instanceof StudioError) return { valid: false, issues: [{ pointer: '/', message: error.message }], document: null }
      throw error
    }
    const issues = await deckIssues(doc)
    let document: DeckDoc | null = null
    try {
      document = normalizeDoc(structuredClone(doc))
    } catch {
      document = null
    }
    return { valid: issues.length === 0, issues, document }
  },
  human: (r: { valid: boolean; issues: Issue[] }) => (r.valid ? 'Valid.' : r.issues.map((i) => `${i.pointer}  ${i.message}`).join('\n')),
})

export default [validateRun] as Action[]
