import { defineAction, type ActionContext, type CliParsed } from '../../core/action.js'
import { fail, StudioError } from '../../core/errors.js'
import { INDENT_STEP, LIST_PRESETS } from '../../model/blocks.js'
import type { Block, DeckDoc, Slide } from '../../model/deck.js'
import { cloneDoc } from '../../model/deck.js'
import { findBlock, findSlide } from '../../model/edit.js'
import { anyOf, arr, bool, BR, Colour, int, nullable, num, obj, oneOf, opt, Pointer, ref, SlideId, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { blockText, checkRange, checkStyle, paragraphs, plainText, SLIDE_HREF_PREFIX, styleRange, type StyleMarks } from '../../model/text.js'
import { defined, numeric, range, targetAsList, without } from './cli.js'
import { blockId, blockIds, slideId } from './common.js'
import { WITH_BODY_SLIDE } from '../given.js'

export { LIST_PRESETS }

const textPath = { ...Pointer, description: 'Pointer of the Text inside the block: /text, /items/<n>/text, /rows/<r>/<c>, /caption (picture), /title (chart).' }
const textRange = arr(int({ minimum: 0 }), {
  minItems: 2,
  maxItems: 2,
  description:
    'Start and end in the plain text (end excluded), counted in Unicode code points (an emoji or any astral character is one, not two), one character per paragraph break. ' +
    'On the command line: --range 0,5 (also 0-5 or [0,5]).',
})
const items = arr(int({ minimum: 0 }), { minItems: 1, uniqueItems: true, description: 'List items (0-based) the write applies to; all when unset.' })
const MARK_SWITCHES = ['italic', 'underline', 'strike', 'superscript', 'subscript'] as const

/** Block kinds carrying the text properties (spacing, columns, indent). */
const TEXT_PROP_KINDS = new Set(['text', 'heading', 'list', 'table', 'shape', 'textbox'])
/** Kinds text.list turns into a list: a paragraph and a text box. */
const LISTABLE = new Set(['text', 'textbox'])

const PRESET_MARKER: Record<string, 'bullet' | 'number' | 'rule'> = {
  disc: 'bullet', circle: 'bullet', square: 'bullet', dash: 'bullet', arrow: 'bullet', check: 'bullet', star: 'bullet', diamond: 'bullet',
  decimal: 'number', 'decimal-paren': 'number', 'lower-alpha': 'number', 'upper-alpha': 'number', 'lower-roman': 'number', 'upper-roman': 'number',
  rule: 'rule',
}

type Staged = (docs: Map<string, DeckDoc | null>) => Record<string, unknown>

/**
 * Edits one slide of a copy of the target deck. The copy is staged only when the slide changed: a
 * write that changes nothing makes no revision and answers the current one.
 */
async function editSlide(
  ctx: ActionContext,
  slideIdValue: string,
  change: (slide: Slide, doc: DeckDoc) => void,
  answer: (slide: Slide) => Record<string, unknown>,
): Promise<Staged | Record<string, unknown>> {
  const current = await ctx.target()
  const doc = cloneDoc(current)
  const slide = findSlide(doc, slideIdValue)
  change(slide, doc)
  const id = doc.manifest.id
  if (JSON.stringify(slide) === JSON.stringify(current.slides[slideIdValue])) {
    const before = current.slides[slideIdValue]
    return { slide: before, ...answer(before), revision: current.manifest.revision }
  }
  ctx.stage(id, doc)
  return (docs) => {
    const next = docs.get(id)!
    const after = next.slides[slideIdValue]
    return { slide: after, ...answer(after), revision: next.manifest.revision }
  }
}

/** Reads the stored markup of a Text; a stored Text outside the subset is named with where it lives. */
function storedPlain(markup: string, where: string): string {
  try {
    return plainText(markup)
  } catch (error) {
    if (error instanceof StudioError) fail('invalid_input', `The stored Text at ${where} cannot be edited: ${error.message}`, { pointer: '/path' })
    throw error
  }
}

/** Applies a style change (marks or a link) over a range of one Text of a block. */
function styleText(ctx: ActionContext, input: { slideId: string; blockId: string; path: string; range: [number, number] }, change: StyleMarks) {
  return editSlide(
    ctx,
    input.slideId,
    (slide) => {
      const block = findBlock(slide, input.blockId)
      const site = blockText(block, input.path)
      const plain = storedPlain(site.value, `${slide.id}#${block.id} ${input.path}`)
      checkRange(plain, input.range, '/range')
      site.set(styleRange(site.value, input.range, change))
    },
    (slide) => {
      const block = findBlock(slide, input.blockId)
      return { block, text: blockText(block, input.path).value }
    },
  )
}

/** The blocks a multi-block text action names, each a kind with text properties. */
function textBlocks(slide: Slide, ids: string[]): Block[] {
  const seen = new Set<string>()
  const out: Block[] = []
  ids.forEach((id, i) => {
    const block = findBlock(slide, id, `/blockIds/${i}`)
    if (!TEXT_PROP_KINDS.has(block.kind)) fail('invalid_input', `Block "${id}" is a ${block.kind} block: it holds no text properties.`, { pointer: `/blockIds/${i}` })
    if (!seen.has(id)) out.push(block)
    seen.add(id)
  })
  return out
}

const answerBlocks = (ids: string[]) => (slide: Slide) => ({ blocks: [...new Set(ids)].map((id) => findBlock(slide, id)) })

/** Item indices checked against a list; all items when unset. */
function itemIndices(block: Block, wanted: number[] | undefined): number[] {
  const list = (block.items as unknown[] | undefined) ?? []
  if (!wanted) return list.map((_, i) => i)
  wanted.forEach((n, k) => {
    if (n >= list.length) fail('not_found', `List "${block.id}" has ${list.length} item(s): no item ${n}.`, { pointer: `/items/${k}` })
  })
  return wanted
}

/** Sets an item's level (1 to 9); level 1 is the default and is not stored. */
function setLevel(item: { level?: number }, level: number) {
  const clamped = Math.min(9, Math.max(1, level))
  if (clamped === 1) delete item.level
  else item.level = clamped
}

/** A paragraph or text box as a list: each non-blank paragraph becomes an item. */
function toList(block: Block): void {
  const text = typeof block.text === 'string' ? block.text : ''
  storedPlain(text, `block ${block.id} /text`)
  const items = paragraphs(text).filter((p) => plainText(p).trim() !== '').map((p) => ({ text: p }))
  delete block.text
  block.kind = 'list'
  block.items = items
}

/** 'null' on the command line clears a value. */
function nullWord(value: unknown): unknown {
  return value === 'null' ? null : value
}

export const textStyle = defineAction({
  id: 'text.style',
  label: 'Style text',
  doc:
    'Sets or clears inline marks over a range of one Text (italic, underline, strike, superscript, subscript, text colour, highlight colour, size in px). ' +
    'Setting superscript clears subscript and the other way round. One text.replace of the whole Text; the result returns the new markup.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    path: textPath,
    range: textRange,
    marks: obj(
      {
        italic: opt(bool({ description: 'true sets, false clears.' })),
        underline: opt(bool({ description: 'true sets, false clears.' })),
        strike: opt(bool({ description: 'true sets, false clears.' })),
        superscript: opt(bool({ description: 'true sets (and clears subscript), false clears.' })),
        subscript: opt(bool({ description: 'true sets (and clears superscript), false clears.' })),
        color: opt({ ...nullable(Colour), description: 'Text colour; null clears.' }),
        highlight: opt({ ...nullable(Colour), description: 'Highlight colour; null clears.' }),
        size: opt({ ...nullable(num({ minimum: 1, maximum: 800 })), description: 'Size in px; null clears.' }),
      },
      { description: 'Marks to set or clear; absent marks are left as they are.', minProperties: 1 },
    ),
    baseRevision: BR,
  }),
  output: written({ slide: ref('Slide'), block: { ...ref('Block'), description: 'The block after the write.' }, text: str({ description: 'The new markup of the Text.' }) }),
  cli: 'text style <slideId>#<blockId> <path> --range <range> --italic --underline --strike --superscript --subscript --color <color> --highlight <highlight> --size <px>',
  mcp: 'deck_style_text',
  cliInput: (parsed: CliParsed) => {
    const fromFlags: Record<string, unknown> = {}
    for (const name of MARK_SWITCHES) if (parsed.flags[name] === true) fromFlags[name] = true
    for (const name of ['color', 'highlight'] as const) if (parsed.flags[name] !== undefined) fromFlags[name] = nullWord(parsed.flags[name])
    if (parsed.flags.size !== undefined) fromFlags.size = nullWord(numeric(parsed.flags.size))
    const base = parsed.input.marks
    const marks = Object.keys(fromFlags).length ? { ...(base && typeof base === 'object' ? base : {}), ...fromFlags } : base
    const rawRange = parsed.flags.range ?? parsed.input.range
    return defined({ ...without(parsed.input, ['marks', 'range']), range: range(rawRange), marks })
  },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockId: 'b1', path: '/text', range: [0, 5], marks: { italic: true, color: 'accent' }, baseRevision: 1 },
  run: (ctx, input: { slideId: string; blockId: string; path: string; range: [number, number]; marks: StyleMarks }) => {
    checkStyle(input.marks, '/marks')
    return styleText(ctx, input, input.marks)
  },
})

export const textList = defineAction({
  id: 'text.list',
  label: 'Set list',
  doc:
    'Sets the list marker (rule, bullet, number) and preset of a block, or the level of its items (1 to 9, or one step with levelBy). ' +
    'A preset implies its marker; a marker of another family drops the preset. ' +
    'A paragraph or text box converts to a list first: each non-blank paragraph becomes an item (marker bullet unless given).',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    marker: opt(oneOf(['rule', 'bullet', 'number'], { description: 'The list marker.' })),
    preset: opt(oneOf(LIST_PRESETS, { description: 'One of the 15 list presets.' })),
    items: opt({ ...items, description: 'Items a level write applies to; all when unset.' }),
    level: opt(int({ minimum: 1, maximum: 9, description: 'Item level, 1 to 9.' })),
    levelBy: opt(oneOf([1, -1], { description: 'Step the level in (1) or out (-1), kept within 1 to 9.' })),
    baseRevision: BR,
  }),
  output: written({ slide: ref('Slide'), block: { ...ref('Block'), description: 'The list block after the write.' } }),
  cli: 'text list <slideId>#<blockId> --marker <marker> --preset <preset> --items <items> --level <level>',
  mcp: 'deck_set_list',
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockId: 'b2', marker: 'number', preset: 'decimal', baseRevision: 1 },
  run: (
    ctx,
    input: { slideId: string; blockId: string; marker?: 'rule' | 'bullet' | 'number'; preset?: string; items?: number[]; level?: number; levelBy?: 1 | -1 },
  ) =>
    editSlide(
      ctx,
      input.slideId,
      (slide) => {
        const block = findBlock(slide, input.blockId)
        const converting = LISTABLE.has(block.kind)
        if (block.kind !== 'list' && !converting) {
          fail('invalid_input', `Block "${block.id}" is a ${block.kind} block: only a list, a paragraph (text) or a text box can be a list.`, { pointer: '/blockId' })
        }
        if (input.level !== undefined && input.levelBy !== undefined) fail('invalid_input', 'Give level or levelBy, not both.', { pointer: '/levelBy' })
        const levelWrite = input.level !== undefined || input.levelBy !== undefined
        if (input.items && !levelWrite) fail('invalid_input', 'items names the items a level write applies to: give level or levelBy with it.', { pointer: '/items' })
        if (!converting && !levelWrite && input.marker === undefined && input.preset === undefined) {
          fail('invalid_input', 'Nothing to change: give marker, preset, level or levelBy.', { pointer: '' })
        }
        if (input.preset !== undefined && input.marker !== undefined && PRESET_MARKER[input.preset] !== input.marker) {
          fail('invalid_input', `The preset ${input.preset} is a ${PRESET_MARKER[input.preset]} preset, not a ${input.marker} one.`, { pointer: '/preset' })
        }
        if (converting) toList(block)
        const indices = levelWrite ? itemIndices(block, input.items) : []
        const marker = input.marker ?? (input.preset !== undefined ? PRESET_MARKER[input.preset] : undefined) ?? (converting ? 'bullet' : undefined)
        if (marker !== undefined) {
          block.marker = marker
          if (typeof block.preset === 'string' && PRESET_MARKER[block.preset] !== marker) delete block.preset
        }
        if (input.preset !== undefined) block.preset = input.preset
        const list = block.items as { text: string; level?: number }[]
        for (const i of indices) setLevel(list[i], input.level ?? (list[i].level ?? 1) + input.levelBy!)
      },
      (slide) => ({ block: findBlock(slide, input.blockId) }),
    ),
})

const spacing = (what: string) => opt({ ...nullable(num({ minimum: 0, maximum: 400 })), description: `${what} in px; null clears.` })

export const textSpacing = defineAction({
  id: 'text.spacing',
  label: 'Set spacing',
  doc: 'Sets the line spacing factor and the space before and after paragraphs (px) of text blocks; null clears one.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    line: opt({ ...nullable(num({ minimum: 0.5, maximum: 4 })), description: 'Line spacing factor; null clears.' }),
    before: spacing('Space before paragraphs'),
    after: spacing('Space after paragraphs'),
    baseRevision: BR,
  }),
  output: written({ slide: ref('Slide'), blocks: arr(ref('Block'), { description: 'The changed blocks.' }) }),
  cli: 'text spacing <slideId>#<blockId> --line <line> --before <before> --after <after>',
  mcp: 'deck_set_spacing',
  cliInput: (parsed) => {
    const input = targetAsList(parsed)
    for (const name of ['line', 'before', 'after']) if (input[name] !== undefined) input[name] = nullWord(input[name])
    return input
  },
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockIds: ['b2'], line: 1.2, after: 12, baseRevision: 1 },
  run: (ctx, input: { slideId: string; blockIds: string[]; line?: number | null; before?: number | null; after?: number | null }) =>
    editSlide(
      ctx,
      input.slideId,
      (slide) => {
        const changes = (['line', 'before', 'after'] as const).filter((k) => input[k] !== undefined)
        if (!changes.length) fail('invalid_input', 'Nothing to change: give line, before or after (null clears one).', { pointer: '' })
        for (const block of textBlocks(slide, input.blockIds)) {
          const next: Record<string, number> = { ...((block.spacing as Record<string, number> | undefined) ?? {}) }
          for (const key of changes) {
            if (input[key] === null) delete next[key]
            else next[key] = input[key] as number
          }
          if (Object.keys(next).length) block.spacing = { ...(next.line !== undefined ? { line: next.line } : {}), ...(next.before !== undefined ? { before: next.before } : {}), ...(next.after !== undefined ? { after: next.after } : {}) }
          else delete block.spacing
        }
      },
      answerBlocks(input.blockIds),
    ),
})

export const textColumns = defineAction({
  id: 'text.columns',
  label: 'Set text columns',
  doc: 'Flows the text of blocks in 1, 2 or 3 columns (1, the default, is not stored).',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockIds, columns: oneOf([1, 2, 3], { description: 'Number of columns, 1 to 3.' }), baseRevision: BR }),
  output: written({ slide: ref('Slide'), blocks: arr(ref('Block'), { description: 'The changed blocks.' }) }),
  cli: 'text columns <slideId>#<blockId> <columns>',
  mcp: 'deck_set_columns',
  cliInput: (parsed) => targetAsList(parsed),
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockIds: ['b2'], columns: 2, baseRevision: 1 },
  run: (ctx, input: { slideId: string; blockIds: string[]; columns: 1 | 2 | 3 }) =>
    editSlide(
      ctx,
      input.slideId,
      (slide) => {
        for (const block of textBlocks(slide, input.blockIds)) {
          if (input.columns === 1) delete block.columns
          else block.columns = input.columns
        }
      },
      answerBlocks(input.blockIds),
    ),
})

/** The indent one step in or out: to the next multiple of 64 px in that direction, within 0 to 1024. */
function steppedIndent(current: number, by: 1 | -1): number {
  const next = by === 1 ? (Math.floor(current / INDENT_STEP) + 1) * INDENT_STEP : (Math.ceil(current / INDENT_STEP) - 1) * INDENT_STEP
  return Math.min(MAX_INDENT, Math.max(0, next))
}
const MAX_INDENT = 1024

export const textIndent = defineAction({
  id: 'text.indent',
  label: 'Indent text',
  doc:
    'Steps the left indent of text blocks in or out by one 64 px step (to the next multiple of 64), or sets it in px (0 to 1024). ' +
    "On a list block with items, by steps the items' levels instead (the named items, or all), kept within 1 to 9.",
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds,
    by: opt(oneOf([1, -1], { description: 'One 64 px step in (1) or out (-1).' })),
    to: opt(num({ minimum: 0, maximum: MAX_INDENT, description: 'The indent in px.' })),
    items: opt({ ...items, description: 'List items whose level steps instead.' }),
    baseRevision: BR,
  }),
  output: written({ slide: ref('Slide'), blocks: arr(ref('Block'), { description: 'The changed blocks.' }) }),
  cli: 'text indent <slideId>#<blockId> --by <by> --to <to> --items <items>',
  mcp: 'deck_set_indent',
  cliInput: (parsed) => targetAsList(parsed),
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockIds: ['b2'], by: 1, baseRevision: 1 },
  run: (ctx, input: { slideId: string; blockIds: string[]; by?: 1 | -1; to?: number; items?: number[] }) =>
    editSlide(
      ctx,
      input.slideId,
      (slide) => {
        if (input.by === undefined && input.to === undefined) fail('invalid_input', 'Give by (1 or -1) or to (px).', { pointer: '' })
        if (input.by !== undefined && input.to !== undefined) fail('invalid_input', 'Give by or to, not both.', { pointer: '/to' })
        if (input.items && input.by === undefined) fail('invalid_input', "items names the list items whose level steps: give by with it.", { pointer: '/items' })
        const blocks = textBlocks(slide, input.blockIds)
        const stepsItems = (block: Block) => block.kind === 'list' && ((block.items as unknown[]) ?? []).length > 0 && input.by !== undefined
        if (input.items) {
          blocks.forEach((block) => {
            if (!stepsItems(block)) fail('invalid_input', `items applies to list blocks with items; "${block.id}" is not one.`, { pointer: '/items' })
          })
        }
        const plan = blocks.map((block) => ({ block, indices: stepsItems(block) ? itemIndices(block, input.items) : undefined }))
        for (const { block, indices } of plan) {
          if (indices) {
            const list = block.items as { text: string; level?: number }[]
            for (const i of indices) setLevel(list[i], (list[i].level ?? 1) + input.by!)
            continue
          }
          const indent = input.to ?? steppedIndent(typeof block.indent === 'number' ? block.indent : 0, input.by!)
          if (indent === 0) delete block.indent
          else block.indent = indent
        }
      },
      answerBlocks(input.blockIds),
    ),
})

export const textLink = defineAction({
  id: 'text.link',
  label: 'Link text',
  doc:
    'Sets a hyperlink over a range of one Text, to a web or mail address or to a slide of the deck (href "#slide:<id>"); null clears any link over the range. ' +
    'One text.replace of the whole Text; the result returns the new markup.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId,
    path: textPath,
    range: textRange,
    link: {
      ...nullable(
        anyOf([
          obj({ url: str({ pattern: '^(https?://|mailto:)', maxLength: 2048, description: 'An http, https or mailto address.' }) }),
          obj({ slide: { ...SlideId, description: 'A slide of this deck.' } }),
        ]),
      ),
      description: '{ url } or { slide }, or null to clear the link over the range.',
    },
    baseRevision: BR,
  }),
  output: written({ slide: ref('Slide'), block: { ...ref('Block'), description: 'The block after the write.' }, text: str({ description: 'The new markup of the Text.' }) }),
  cli: 'text link <slideId>#<blockId> <path> --range <range> --url <url> --to-slide <slide> --clear',
  mcp: 'deck_link_text',
  cliInput: (parsed) => {
    const url = parsed.flags.url
    const slide = parsed.flags['to-slide']
    const clear = parsed.flags.clear === true
    if ([url !== undefined, slide !== undefined, clear].filter(Boolean).length > 1) fail('invalid_input', 'Give one of --url, --to-slide or --clear.', { pointer: '/link' })
    const link = clear ? null : url !== undefined ? { url } : slide !== undefined ? { slide } : parsed.input.link
    const rawRange = parsed.flags.range ?? parsed.input.range
    return defined({ ...without(parsed.input, ['url', 'slide', 'clear', 'link', 'range']), range: range(rawRange), link })
  },
  annotations: { idempotent: true },
  given: WITH_BODY_SLIDE,
  example: { slideId: 'title-body-2', blockId: 'b1', path: '/text', range: [0, 10], link: { url: 'https://example.com/report' }, baseRevision: 1 },
  run: async (ctx, input: { slideId: string; blockId: string; path: string; range: [number, number]; link: { url: string } | { slide: string } | null }) => {
    const link = input.link
    let href: string | null = null
    if (link && 'url' in link) href = link.url
    else if (link) {
      findSlide(await ctx.target(), link.slide, '/link/slide')
      href = `${SLIDE_HREF_PREFIX}${link.slide}`
    }
    return styleText(ctx, input, { href })
  },
})
