import type { Action } from '../../core/action.js'
import { logoInsert } from './insert.js'
import { logoRefresh } from './refresh.js'
import { logoSearch } from './search.js'

export default [logoSearch, logoInsert, logoRefresh] as Action[]
