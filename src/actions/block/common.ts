/** Schemas shared by the block-group declarations. */
import { BlockId, BlockIds, SlideId } from '../../model/schema.js'

export const slideId = { ...SlideId, description: 'The slide holding the block(s).' }
export const blockId = { ...BlockId, description: 'The block.' }
export const blockIds = { ...BlockIds, description: 'The blocks (objects at the top level of the slide).' }
