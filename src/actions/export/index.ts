import type { Action } from '../../core/action.js'
import { buildRun, exportCheck, exportRun, exportText, fontsBuild } from './export.js'

export default [exportRun, exportCheck, exportText, buildRun, fontsBuild] as Action[]
