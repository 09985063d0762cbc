import type { Action } from '../../core/action.js'
import { adminAvatarSweep } from './avatar.js'
import { adminBootstrap } from './bootstrap.js'
import { adminFlag } from './flag.js'
import { adminMailList } from './mail.js'
import { adminAssignOwner } from './owner.js'
import { adminMigrateStorage } from './storage.js'

export default [adminAvatarSweep, adminBootstrap, adminAssignOwner, adminFlag, adminMigrateStorage, adminMailList] as Action[]
