import type { Action } from '../../core/action.js'
import { slideSetBackground, slideSetBackgroundMaterial, slideSetBackgroundPicture } from './background.js'
import { diagramInsert } from './diagram.js'
import { slideApplyLayout, slideSetLayout, slideToCanvas } from './layout.js'
import { slideLease } from './lease.js'
import { slideGet, slideList } from './read.js'
import { slideSkip } from './skip.js'
import { slideDuplicate, slideImport, slideInsert, slideMove, slideNew, slideRemove } from './structure.js'
import { textReplaceAll } from './text.js'
import { slideReplace, slideUpdate } from './update.js'

export default [
  slideList,
  slideGet,
  slideInsert,
  slideRemove,
  slideMove,
  slideUpdate,
  slideReplace,
  slideSetLayout,
  slideNew,
  slideDuplicate,
  slideSkip,
  slideApplyLayout,
  slideImport,
  slideToCanvas,
  slideSetBackground,
  textReplaceAll,
  diagramInsert,
  slideLease,
  slideSetBackgroundPicture,
  slideSetBackgroundMaterial,
] as Action[]
