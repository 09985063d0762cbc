import type { Action } from '../../core/action.js'
import { diffRun, versionDiff, versionList, versionRestore, versionSave } from './version.js'

export default [diffRun, versionSave, versionList, versionRestore, versionDiff] as Action[]
