import type { Action } from '../../core/action.js'
import { fontList, renderSheet, renderSlide } from './render.js'
import { shaderRender } from './shader.js'

export default [renderSlide, renderSheet, fontList, shaderRender] as Action[]
