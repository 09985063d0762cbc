/**
 * Geometry, the one owner (DESIGN.md "Geometry has one owner"): slot boxes of the 22 layouts on
 * the 1600 × 900 sheet, stacking, text measurement with real font metrics, canvas conversion and
 * autofit. Pure: no file writes, no git. docs/layouts.md describes the model and draws the boxes.
 */
export { SHEET } from '../model/layouts.js'
export { type Box, type Anchor, type SlotSpec, type RegionLayout, type LayoutOptions, type LayoutOption, type Arrangement, LAYOUT_SLOTS, REGIONS, layoutSlots, splitRegions, MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM, STACK_GAP, slotBoxes, contentBox } from './boxes.js'
export { measureText, stripMarkup, textWidth, LINE_HEIGHT, COLUMN_GAP, type MeasureOptions, type Measure, type Weight } from './text.js'
export { blockHeight, fitText, textStyle, defaultSize, isFlexible, listGutter, listGap, SIZE_STEPS, TEXT_SIZE, SHAPE_INSET, MEDIA_ASPECT, type TextStyle } from './blocks.js'
export { drawnBoxes, slotFills, roomFor, fieldBlocks, MIN_FLEX, type SlotFill, type Field } from './stack.js'
export { toCanvas, refile, slotAt } from './canvas.js'
export { layoutTable } from './docs.js'
