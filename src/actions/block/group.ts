import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { findSlide } from '../../model/edit.js'
import { arr, BlockId, BR, nullable, obj, opt, ref, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { blocksOf, canvasSlide, editSlide, findBlocks, humanResult } from './canvas.js'
import { blockIds, slideId } from './common.js'
import { forgetUngrouped, rememberUngrouped, ungroupedSet } from './ungrouped.js'
import { WITH_CANVAS_SLIDE } from '../given.js'

interface GroupInput {
  slideId: string
  blockIds: string[]
  group?: string
  baseRevision: number
}

interface UngroupInput {
  slideId: string
  blockIds?: string[]
  group?: string
  baseRevision: number
}

/** Every block id carrying a tag, in document order. */
function membersOf(blocks: { id: string; group?: unknown }[], tag: string): string[] {
  return blocks.filter((b) => b.group === tag).map((b) => b.id)
}

/** `group-<n>` with the first n no block of the slide uses. */
function newTag(tags: Set<unknown>): string {
  for (let n = 1; ; n++) if (!tags.has(`group-${n}`)) return `group-${n}`
}

const tag = (description: string) => str({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$', maxLength: 60, description })
const grouped = written({ group: tag('The group tag.'), blockIds: arr(BlockId, { description: 'The members.' }), slide: ref('Slide') })
const ungroupedResult = written({
  group: { ...nullable(tag('')), description: 'The group taken apart, when there was one; null otherwise.' },
  blockIds: arr(BlockId, { description: 'The objects ungrouped.' }),
  ungrouped: arr(obj({ group: tag('A tag taken off.'), blockIds: arr(BlockId) }), { description: 'Each tag taken off, with the members it had (remembered for block.regroup).' }),
  slide: ref('Slide'),
})
const regroupedResult = written({
  group: tag('The group tag.'),
  blockIds: arr(BlockId, { description: 'The members now.' }),
  remembered: { ...nullable(arr(BlockId)), description: 'The set remembered from the last ungroup that came back with them, or null.' },
  slide: ref('Slide'),
})

export const blockGroup = defineAction({
  id: 'block.group',
  label: 'Group blocks',
  doc: 'Tags two or more objects as one group in one write (group-<n> when no tag is given; a tag in use takes them in); converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds: { ...blockIds, minItems: 2, description: 'Two or more objects.' },
    group: opt(tag('The group tag; generated when absent.')),
    baseRevision: BR,
  }),
  output: grouped,
  cli: 'block group <slideId> --blocks <blockIds> --as <group>',
  mcp: 'deck_group_blocks',
  human: humanResult,
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1', 'b2'], group: 'hero', baseRevision: 2 },
  run: (ctx, input: GroupInput) =>
    editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = canvasSlide(doc, input.slideId)
        const blocks = findBlocks(slide, input.blockIds)
        const tag = input.group ?? newTag(new Set(blocksOf(slide).map((b) => b.group)))
        for (const block of blocks) block.group = tag
        return tag
      },
      (slide, tag) => ({ group: tag, blockIds: membersOf(slide.blocks ?? [], tag) }),
    ),
})

export const blockUngroup = defineAction({
  id: 'block.ungroup',
  label: 'Ungroup blocks',
  doc:
    'Removes the group tag from the named objects only, or from every member of the named group (with both, the named objects must be members). ' +
    'Members not named keep their tag. The members each tag had are remembered locally for block.regroup.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockIds: opt({ ...blockIds, description: 'The objects to take out of their group.' }),
    group: opt(tag('The group whose members are all ungrouped.')),
    baseRevision: BR,
  }),
  output: ungroupedResult,
  cli: 'block ungroup <slideId> --group <group> --blocks <blockIds>',
  mcp: 'deck_ungroup_blocks',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1'], baseRevision: 2 },
  run: async (ctx, input: UngroupInput) => {
    const deckId = (await ctx.target()).manifest.id
    return editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = findSlide(doc, input.slideId)
        if (input.blockIds === undefined && input.group === undefined) fail('invalid_input', 'Name the objects (blockIds) or the group (group).', { pointer: '' })
        const all = blocksOf(slide)
        if (input.group !== undefined && !all.some((b) => b.group === input.group)) fail('not_found', `No group "${input.group}" on slide "${slide.id}".`, { pointer: '/group' })
        const named = input.blockIds ? findBlocks(slide, input.blockIds) : all.filter((b) => b.group === input.group)
        if (input.group !== undefined) {
          named.forEach((block, i) => {
            if (block.group !== input.group) fail('invalid_input', `Block "${block.id}" is not in group "${input.group}".`, { pointer: `/blockIds/${i}` })
          })
        }
        // Remember each tag's members as they were, for block.regroup.
        const before = new Map<string, string[]>()
        for (const block of named) if (typeof block.group === 'string' && !before.has(block.group)) before.set(block.group, membersOf(all, block.group))
        for (const block of named) delete block.group
        for (const [tag, members] of before) rememberUngrouped(ctx, deckId, slide.id, tag, members)
        return [...before.entries()].map(([group, members]) => ({ group, blockIds: members }))
      },
      (slide, sets) => ({
        group: sets.length === 1 ? sets[0].group : null,
        blockIds: input.blockIds ?? sets.flatMap((s) => s.blockIds),
        ungrouped: sets,
      }),
    )
  },
})

export const blockRegroup = defineAction({
  id: 'block.regroup',
  label: 'Regroup blocks',
  doc:
    'Writes a group tag back onto objects: when one of them was in the set the last ungroup of that tag took apart, the whole remembered set gets it back. ' +
    'Converts a non-canvas slide first.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockIds, group: tag('The group tag to write back.'), baseRevision: BR }),
  output: regroupedResult,
  cli: 'block regroup <slideId> --blocks <blockIds> --as <group>',
  mcp: 'deck_regroup_blocks',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockIds: ['b1', 'b2'], group: 'hero', baseRevision: 2 },
  run: async (ctx, input: GroupInput & { group: string }) => {
    const deckId = (await ctx.target()).manifest.id
    return editSlide(
      ctx,
      input.slideId,
      (doc) => {
        const slide = canvasSlide(doc, input.slideId)
        const named = findBlocks(slide, input.blockIds)
        const present = new Set(blocksOf(slide).map((b) => b.id))
        const remembered = ungroupedSet(ctx.ws, deckId, slide.id, input.group)?.filter((id) => present.has(id))
        // A former member brings back the whole set the last ungroup took apart.
        const restores = remembered && named.some((b) => remembered.includes(b.id))
        const members = new Set([...named.map((b) => b.id), ...(restores ? remembered : [])])
        for (const block of blocksOf(slide)) if (members.has(block.id)) block.group = input.group
        if (membersOf(blocksOf(slide), input.group).length < 2) fail('invalid_input', 'A group needs two or more objects.', { pointer: '/blockIds' })
        if (restores) forgetUngrouped(ctx, deckId, slide.id, input.group)
        return { remembered: restores ? remembered : null }
      },
      (slide, { remembered }) => ({ group: input.group, blockIds: membersOf(slide.blocks ?? [], input.group), remembered }),
    )
  },
})
