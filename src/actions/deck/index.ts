import type { Action } from '../../core/action.js'
import { deckPack, deckUnpack } from './bundle.js'
import { deckBrandKit } from './brand.js'
import { importRun } from './import.js'
import { assistApply, assistPropose } from './later.js'
import { deckLint } from './lint.js'
import { deckTailor } from './tailor.js'
import { deckPull, deckPush } from './transfer.js'
import { deckCopy, deckCreate, deckRemove, deckRepair, deckRestore, deckSetDefault, deckTrash } from './lifecycle.js'
import { deckGet, deckInfoAction, deckList } from './read.js'
import { deckGuides, deckRename, deckSet, deckSetBackground, sectionSet } from './settings.js'
import { templateCreate, templateDelete, templateList, templateRename, templateSetDefault, templateSlides, templateUpdate } from './templates.js'

export default [
  deckInfoAction, deckCreate, deckRename, deckSet, deckPack, deckUnpack, deckPush, deckPull, deckList, deckCopy, deckTrash, deckRestore,
  deckRemove, deckSetBackground, deckGuides, deckTailor, assistPropose,
  templateList, templateSlides, templateCreate, templateUpdate, templateRename, templateDelete, templateSetDefault,
  sectionSet, importRun,
  deckGet, deckSetDefault, deckRepair, deckLint, deckBrandKit, assistApply,
] as Action[]
