import type { Action } from '../../core/action.js'
import { commentAdd, commentReply } from './add.js'
import { commentDelete, commentEdit } from './edit.js'
import { commentGet, commentLink, commentList } from './list.js'
import { commentAssign, commentDone, commentReact, commentReopen, commentResolve } from './state.js'

export default [
  commentAdd,
  commentReply,
  commentEdit,
  commentDelete,
  commentResolve,
  commentReopen,
  commentAssign,
  commentDone,
  commentReact,
  commentList,
  commentGet,
  commentLink,
] as Action[]
