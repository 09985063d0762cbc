/**
 * The 16 mutation kinds of `slide.update`: a union discriminated on `kind`.
 *
 * The spec shows two kinds (`text.replace`, `deck.set`); the other fourteen are ours, chosen so an
 * author or agent can make any everyday slide edit in one call. Pointers are JSON pointers inside the
 * slide document (e.g. `/blocks/0/text`), except `deck.set`, whose path names a manifest field.
 * Each kind is applied in list order; the whole list is one write.
 */
import { BlockSchema } from '../../model/deck.js'
import { LAYOUTS, SLOTS } from '../../model/layouts.js'
import { arr, BlockId, BlockIds, Box, Colour, int, lit, nullable, obj, oneOf, opt, Pointer, str, unknown, type Schema } from '../../model/schema.js'

export const DECK_SET_PATHS = ['/title', '/theme', '/defaults/appearance', '/defaults/counter', '/defaults/notes'] as const

const TITLE_FIELDS = ['title', 'subtitle', 'byline'] as const

const after = opt({ ...BlockId, description: 'The block this one follows inside its slot; first in the slot when absent.' })

export const MUTATION_SCHEMAS = {
  set: obj(
    { kind: lit('set'), pointer: { ...Pointer, description: 'Where inside the slide, e.g. /notes or /blocks/2/caption.' }, value: unknown('The new value (any JSON).') },
    { description: 'Writes a value at a pointer inside the slide.' },
  ),
  remove: obj(
    { kind: lit('remove'), pointer: { ...Pointer, description: 'The member to delete inside the slide.' } },
    { description: 'Removes the member at a pointer inside the slide.' },
  ),
  'text.replace': obj(
    {
      kind: lit('text.replace'),
      pointer: { ...Pointer, description: 'Pointer of a Text inside the slide, e.g. /blocks/1/text or /title.' },
      text: str({ description: 'The new text, inline marks included; replaces the whole Text.' }),
    },
    { description: 'Replaces one Text of the slide.' },
  ),
  'deck.set': obj(
    {
      kind: lit('deck.set'),
      path: oneOf(DECK_SET_PATHS, { description: 'The manifest field to write.' }),
      value: opt(unknown('The new value; omit to remove the field.')),
    },
    { description: 'One deck.set of a manifest field, in the same write as the slide.' },
  ),
  'block.insert': obj(
    {
      kind: lit('block.insert'),
      block: BlockSchema,
      slot: opt(oneOf(SLOTS, { description: "The slot it is filed into; the block's own slot when absent." })),
      after,
    },
    { description: 'Inserts a block; a block carrying pos on a non-canvas slide converts the slide first.' },
  ),
  'block.remove': obj({ kind: lit('block.remove'), blockId: BlockId }, { description: 'Removes a block.' }),
  'block.move': obj(
    { kind: lit('block.move'), blockId: BlockId, slot: oneOf(SLOTS, { description: 'The target slot.' }), after },
    { description: 'Moves a block to a slot, after a sibling or first.' },
  ),
  'block.replace': obj(
    { kind: lit('block.replace'), block: BlockSchema },
    { description: 'Replaces the block with the same id by this block document.' },
  ),
  'block.set': obj(
    {
      kind: lit('block.set'),
      blockId: BlockId,
      path: { ...Pointer, description: 'JSON pointer inside the block, e.g. /key.' },
      value: opt(unknown('The new value; omit to delete the property.')),
    },
    { description: 'Sets or deletes one property of a block (as block.set).' },
  ),
  'block.position': obj(
    {
      kind: lit('block.position'),
      blockId: BlockId,
      pos: Box,
      z: opt(int({ minimum: 0, description: 'Stacking rank, 0 at the back; the stack is renumbered densely.' })),
    },
    { description: 'Places a block on the canvas at a box (and rank); converts a non-canvas slide first.' },
  ),
  'blocks.reorder': obj(
    {
      kind: lit('blocks.reorder'),
      slot: oneOf(SLOTS, { description: 'The slot whose blocks are reordered.' }),
      blockIds: { ...BlockIds, description: 'Every block of the slot, in the new order.' },
    },
    { description: 'Reorders the blocks of one slot.' },
  ),
  'notes.set': obj(
    { kind: lit('notes.set'), notes: str({ description: 'Speaker notes; an empty string removes them.' }) },
    { description: "Replaces the slide's speaker notes." },
  ),
  'skip.set': obj(
    { kind: lit('skip.set'), skip: { type: 'boolean', description: 'true leaves the slide out of the slideshow, shared view, downloads and print.' } },
    { description: 'Skips or shows the slide.' },
  ),
  'layout.set': obj(
    { kind: lit('layout.set'), layout: oneOf(LAYOUTS, { description: 'The target layout.' }) },
    { description: 'Changes the layout as slide.setLayout does: to freeform measures boxes, from freeform refiles by geometry.' },
  ),
  'background.set': obj(
    { kind: lit('background.set'), background: { ...nullable(Colour), description: 'A palette token or hex colour; null lets the theme default apply.' } },
    { description: "Sets the slide's background colour." },
  ),
  'title.set': obj(
    {
      kind: lit('title.set'),
      text: str({ description: 'The new text.' }),
      field: opt(oneOf(TITLE_FIELDS, { description: "Which title-slide field; 'title' when absent. On other layouts the title slot's text." })),
    },
    { description: "Sets the slide's title (or a title slide's subtitle or byline)." },
  ),
} satisfies Record<string, Schema>

export type MutationKind = keyof typeof MUTATION_SCHEMAS

export const MUTATION_KINDS = Object.keys(MUTATION_SCHEMAS) as MutationKind[]

export const MutationSchema: Schema = {
  type: 'object',
  required: ['kind'],
  discriminator: { propertyName: 'kind' },
  oneOf: MUTATION_KINDS.map((kind) => MUTATION_SCHEMAS[kind]),
  description: `A slide mutation, discriminated on kind: ${MUTATION_KINDS.join(', ')}.`,
}

export const MutationsSchema: Schema = arr(MutationSchema, { minItems: 1, description: 'Mutations applied in order to one slide, in one write.' })
