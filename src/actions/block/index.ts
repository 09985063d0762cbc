import type { Action } from '../../core/action.js'
import { blockAlign, blockDistribute, blockOrder } from './arrange.js'
import { blockAutofit, blockSetAlt, blockShadow } from './appearance.js'
import { chartSetData, chartSetType } from './chart.js'
import { blockConnect, blockDisconnect } from './connector.js'
import { blockDuplicate, blockGet, blockInsert, blockMove, blockRemove, blockSet } from './edit.js'
import { blockGroup, blockRegroup, blockUngroup } from './group.js'
import { blockAdjust, blockCrop, blockMask, blockResetImage } from './image.js'
import { pictureDither, pictureMaterialize } from './picture.js'
import { shaderInsert, shaderSet } from './shader.js'
import { tableInsertColumns, tableInsertRows, tableRemoveColumns, tableRemoveRows, tableSetCell } from './table.js'
import { textColumns, textIndent, textLink, textList, textSpacing, textStyle } from './text.js'
import { blockFlip, blockLock, blockNudge, blockResize, blockRotate } from './transform.js'

export default [
  blockGet,
  blockSet,
  blockInsert,
  blockRemove,
  blockMove,
  blockDuplicate,
  blockAlign,
  blockDistribute,
  blockOrder,
  blockGroup,
  blockUngroup,
  blockRegroup,
  blockRotate,
  blockFlip,
  blockResize,
  blockNudge,
  blockLock,
  blockCrop,
  blockMask,
  blockResetImage,
  blockAdjust,
  blockSetAlt,
  blockShadow,
  blockAutofit,
  blockConnect,
  blockDisconnect,
  textStyle,
  textList,
  textSpacing,
  textColumns,
  textIndent,
  textLink,
  tableInsertRows,
  tableRemoveRows,
  tableInsertColumns,
  tableRemoveColumns,
  tableSetCell,
  chartSetData,
  chartSetType,
  shaderInsert,
  shaderSet,
  pictureDither,
  pictureMaterialize,
] as Action[]
