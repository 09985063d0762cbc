import { defineAction } from '../../core/action.js'
import { SlideSchema } from '../../model/deck.js'
import { BR, obj, outline, SlideId } from '../../model/schema.js'
import { given, without } from '../block/cli.js'
import { MUTATION_KINDS, MutationsSchema } from './mutations.js'

/** `--set /pointer=value`: the value is JSON when it parses, else the literal string. */
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

export const slideUpdate = defineAction({
  id: 'slide.update',
  label: 'Update slide',
  doc:
    `Applies a list of mutations to one slide in one write and returns the normalized slide with its findings. ` +
    `Mutation kinds: ${MUTATION_KINDS.join(', ')}.`,
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId: SlideId, baseRevision: BR, mutations: MutationsSchema }),
  output: outline({ slide: 'The normalized slide.', findings: 'Lint findings on the slide after the write.', revision: 'The new revision.' }),
  cli: 'slide patch <slideId> --set <pointer>=<value>',
  mcp: 'deck_update_slide',
  cliInput: (parsed) => {
    const set = given(parsed, 'set') ?? given(parsed, 'pointer')
    const pairs = (Array.isArray(set) ? set : set === undefined ? [] : [set]).map(String)
    const rest = without(parsed.input, ['set', 'pointer', 'value'])
    return pairs.length ? { ...rest, mutations: pairs.map(setMutation) } : rest
  },
  example: {
    slideId: 'title-body-2',
    baseRevision: 3,
    mutations: [
      { kind: 'text.replace', pointer: '/blocks/0/text', text: 'Why now' },
      { kind: 'notes.set', notes: 'Pause here for questions.' },
      { kind: 'deck.set', path: '/title', value: 'Q3 review' },
    ],
  },
})

export const slideReplace = defineAction({
  id: 'slide.replace',
  label: 'Replace slide',
  doc: "Replaces a whole slide by a slide document (what the source drawer's Apply emits).",
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId: SlideId, baseRevision: BR, slide: SlideSchema }),
  output: outline({ slide: 'The normalized slide.', findings: 'Lint findings on the slide after the write.', revision: 'The new revision.' }),
  cli: 'slide put <slideId> < slide.json',
  mcp: 'deck_replace_slide',
  stdinField: 'slide',
  annotations: { idempotent: true },
  example: {
    slideId: 'title-body-2',
    baseRevision: 3,
    slide: { id: 'title-body-2', layout: 'title-body', blocks: [{ id: 'b1', kind: 'heading', slot: 'title', text: 'Why now' }] },
  },
})
