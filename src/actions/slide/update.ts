import { defineAction } from '../../core/action.js'
import { fail, StudioError } from '../../core/errors.js'
import { validateInput } from '../../core/validate.js'
import type { DeckDoc, Slide } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { checkInputBlocks, documentIssues } from '../../model/check.js'
import { findSlide } from '../../model/edit.js'
import { applyMutation, type Mutation } from '../../model/mutations/index.js'
import { normalizeDoc } from '../../model/normalize.js'
import { check, slideTexts } from '../../model/text.js'
import { arr, BR, obj, ref, SlideId } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { without } from '../block/cli.js'
import { assetRecords, checkSlide, findingsOf, SlideInput } from './common.js'
import { MUTATION_KINDS, MutationsSchema } from './mutations.js'
import { WITH_BODY_SLIDE } from '../given.js'

/** `--set /pointer=value`: the value is JSON when it parses, else the literal string; `--set /pointer` alone writes true. */
function setMutation(pair: string) {
  const at = pair.indexOf('=')
  if (at < 0) return { kind: 'set', pointer: pair, value: true }
  const raw = pair.slice(at + 1)
  let value: unknown = raw
  try {
    value = JSON.parse(raw)
  } catch {
    // a bare word stays a string
  }
  return { kind: 'set', pointer: pair.slice(0, at), value }
}

/**
 * The document after a step, checked against the stored-slide schema, so that a step writing a value
 * the model refuses is named by its index rather than by a path in the deck.
 */
async function checkStep(doc: DeckDoc, slideId: string, index: number, kind: string): Promise<void> {
  const normalized = normalizeDoc(doc)
  const probe = { manifest: normalized.manifest, slides: { [slideId]: normalized.slides[slideId] }, versions: [] }
  const [issue] = (await documentIssues(probe, [slideId])).filter((i) => i.pointer.startsWith(`/slides/${slideId}`))
  if (issue) {
    const inner = issue.pointer.split('/').slice(3).join('/')
    fail(issue.code ?? 'invalid_input', `Mutation ${index} (${kind}) would leave the slide invalid at /${inner}: ${issue.message}`, {
      pointer: `/mutations/${index}`,
      details: { at: `/${inner}` },
    })
  }
}

/** Applies the list in order to a copy of the deck; the first failing step answers 400 naming its index, nothing staged. */
export async function applyAll(doc: DeckDoc, slideId: string, mutations: Mutation[]): Promise<void> {
  const slide = doc.slides[slideId]
  for (const [index, mutation] of mutations.entries()) {
    const before = new Set(slideTexts(slide).map((site) => site.value))
    const result = applyMutation(slide, mutation, doc)
    if (!result.ok) fail(result.code ?? 'invalid_input', `Mutation ${index} (${mutation.kind}): ${result.message}`, { pointer: `/mutations/${index}${result.pointer}` })
    // Text the step wrote must be markup the reader accepts (Text already stored is read leniently).
    for (const site of slideTexts(slide)) {
      if (before.has(site.value)) continue
      try {
        check(site.value)
      } catch (error) {
        if (!(error instanceof StudioError)) throw error
        fail('invalid_input', `Mutation ${index} (${mutation.kind}) writes refused markup at ${site.pointer}: ${error.message}`, { pointer: `/mutations/${index}`, details: { at: site.pointer } })
      }
    }
    try {
      checkSlide(slide, '', { markup: false })
    } catch (error) {
      if (!(error instanceof StudioError)) throw error
      fail(error.code === 'id_taken' ? 'id_taken' : 'invalid_input', `Mutation ${index} (${mutation.kind}) would leave the slide invalid at ${error.extra.pointer}: ${error.message}`, {
        pointer: `/mutations/${index}`,
        details: { at: error.extra.pointer },
      })
    }
    await checkStep(doc, slideId, index, mutation.kind)
  }
}

export const slideUpdate = defineAction({
  id: 'slide.update',
  label: 'Update slide',
  doc:
    `Applies a list of mutations to one slide in one write and returns the normalized slide with its findings. ` +
    `All or nothing: the first step that does not apply answers 400 naming /mutations/<i>, and nothing is written. ` +
    `Mutation kinds: ${MUTATION_KINDS.join(', ')}.`,
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId: SlideId, baseRevision: BR, mutations: MutationsSchema }),
  output: written({ slide: ref('Slide'), findings: arr(ref('Finding'), { description: 'Lint findings on the slide after the write.' }) }),
  cli: 'slide patch <slideId> --set <pointer>=<value>',
  mcp: 'deck_update_slide',
  cliInput: (parsed) => {
    const set = parsed.flags.set
    const pairs = (Array.isArray(set) ? set : set === undefined ? [] : [set]).map(String)
    const rest = without(parsed.input, ['set', 'pointer', 'value'])
    if (!pairs.length) return rest
    const listed = Array.isArray(rest.mutations) ? rest.mutations : []
    return { ...rest, mutations: [...listed, ...pairs.map(setMutation)] }
  },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', baseRevision: 1, mutations: [{ kind: 'text.replace', pointer: '/blocks/0/text', text: 'Why now' }, { kind: 'notes.set', notes: 'Pause here for questions.' }, { kind: 'deck.set', path: '/title', value: 'Q3 review' }] },
  run: async (ctx, input: { slideId: string; mutations: Mutation[] }) => {
    const current = await ctx.target()
    findSlide(current, input.slideId)
    const doc = cloneDoc(current)
    await applyAll(doc, input.slideId, input.mutations)
    const assets = await assetRecords(ctx, current)
    ctx.stage(doc.manifest.id, doc)
    return (docs: Map<string, DeckDoc | null>) => {
      const next = docs.get(doc.manifest.id)!
      const slide = next.slides[input.slideId]
      return { slide, findings: findingsOf(slide, next, assets), revision: next.manifest.revision }
    }
  },
})

export const slideReplace = defineAction({
  id: 'slide.replace',
  label: 'Replace slide',
  doc: "Replaces a whole slide by a slide document (what the source drawer's Apply emits). The id stays; the section list is unchanged.",
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId: SlideId, baseRevision: BR, slide: SlideInput }),
  output: written({ slide: ref('Slide'), findings: arr(ref('Finding'), { description: 'Lint findings on the slide after the write.' }) }),
  cli: 'slide put <slideId> < slide.json',
  mcp: 'deck_replace_slide',
  stdinField: 'slide',
  annotations: { idempotent: true, destructive: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', baseRevision: 1, slide: { id: 'title-body-2', layout: 'title-body', blocks: [{ id: 'b1', kind: 'heading', slot: 'title', text: 'Why now' }] } },
  run: async (ctx, input: { slideId: string; slide: Slide }) => {
    await checkInputBlocks(input.slide.blocks, '/slide/blocks')
    const current = await ctx.target()
    findSlide(current, input.slideId)
    if (input.slide.id !== undefined && input.slide.id !== input.slideId) {
      fail('invalid_input', `The document's id "${input.slide.id}" is not "${input.slideId}"; a slide keeps its id.`, { pointer: '/slide/id' })
    }
    const slide = { ...structuredClone(input.slide), id: input.slideId }
    checkSlide(slide, '/slide')
    const assets = await assetRecords(ctx, current)
    const doc = cloneDoc(current)
    doc.slides[input.slideId] = slide
    ctx.stage(doc.manifest.id, doc)
    return (docs: Map<string, DeckDoc | null>) => {
      const next = docs.get(doc.manifest.id)!
      const written = next.slides[input.slideId]
      return { slide: written, findings: findingsOf(written, next, assets), revision: next.manifest.revision }
    }
  },
})

