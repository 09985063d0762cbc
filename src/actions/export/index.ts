import type { Action } from '../../core/action.js'
import { buildRun, exportCheck, exportMarkdown, exportRun, exportText, fontsBuild } from './export.js'

export default [exportRun, exportCheck, exportText, exportMarkdown, buildRun, fontsBuild] as Action[]
