import { defineAction } from '../../core/action.js'
import { arr, int, num, obj, oneOf, openObj, opt, str } from '../../model/schema.js'
import { planned, result } from '../../model/results.js'
import { MaterialId } from '../block/picture.js'
import { given, without } from '../block/cli.js'

export const shaderRender = defineAction({
  id: 'shader.render',
  label: 'Render shader',
  doc:
    "Renders a shader recipe to PNG bytes with no deck write, at 3200 by 1800 unless a size with long side 3200 is named; " +
    "the deck's brand kit colours presets when the call names a deck.",
  group: 'render',
  milestone: 'M10',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    materialId: MaterialId,
    preset: opt(str({ description: 'A palette preset of the material.' })),
    uniforms: opt(openObj('Uniform values by name (record).')),
    controls: opt(openObj('Common control values by name.')),
    size: opt(arr(int({ minimum: 1, maximum: 3200 }), { minItems: 2, maxItems: 2, description: 'Width and height; 3200 by 1800 when absent, long side 3200.' })),
    timeMs: opt(num({ minimum: 0, description: 'Frame time in ms.' })),
    backend: opt(oneOf(['angle-metal', 'swiftshader'], { description: 'The capture browser backend.' })),
    out: opt(str({ description: 'CLI: the file the PNG is written to.' })),
  }),
  output: planned(result({ png: str({ description: 'The PNG bytes (base64), or the path written with out.' }), width: int({ minimum: 1, description: 'Width in px.' }), height: int({ minimum: 1, description: 'Height in px.' }) })),
  cli: 'shader render <materialId> --preset <preset> --time <timeMs> --out <file>',
  mcp: 'deck_shader_render',
  cliInput: (parsed) => {
    const file = given(parsed, 'file')
    const rest = without(parsed.input, ['file'])
    return file === undefined ? rest : { ...rest, out: file }
  },
  example: { materialId: 'paper:mesh-gradient', preset: 'dusk', timeMs: 1200 },
})
