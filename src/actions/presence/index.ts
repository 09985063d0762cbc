import type { Action } from '../../core/action.js'
import { presenceFollow, presenceList, presencePointer, presenceUnfollow } from './presence.js'

export default [presenceList, presenceFollow, presenceUnfollow, presencePointer] as Action[]
