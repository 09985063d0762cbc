import type { Action } from '../../core/action.js'
import { assetAdd } from './add.js'
import { assetCapture } from './capture.js'
import { assetDither } from './dither.js'
import { materialCapture, materialList } from './material.js'
import { shaderCapture, shaderFrame, shaderList } from './shader.js'

export default [assetAdd, assetDither, assetCapture, materialCapture, materialList, shaderList, shaderFrame, shaderCapture] as Action[]
