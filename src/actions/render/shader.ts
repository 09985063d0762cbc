import { writeInside } from '../../store/safe-open.js'
import { isAbsolute, relative, sep } from 'node:path'
import { defineAction } from '../../core/action.js'
import { fail, StudioError } from '../../core/errors.js'
import { arr, int, num, obj, oneOf, openObj, opt, str } from '../../model/schema.js'
import { result } from '../../model/results.js'
import { MaterialId } from '../block/picture.js'
import { given, without } from '../block/cli.js'
import { deckPresets } from '../asset/shader-common.js'

interface RenderInput {
  materialId: string
  preset?: string
  uniforms?: Record<string, unknown>
  controls?: Record<string, number>
  size?: [number, number]
  timeMs?: number
  backend?: 'angle-metal' | 'swiftshader'
  out?: string
}

export const shaderRender = defineAction<RenderInput, any>({
  id: 'shader.render',
  label: 'Render shader',
  doc:
    "Renders a shader recipe to PNG bytes with no deck write, at 3200 by 1800 unless a size with long side 3200 is named; " +
    "the deck's brand kit colours presets when the call names a deck.",
  group: 'render',
  milestone: 'M10',
  mutates: false,
  capability: null,
  transports: 'CMHP',
  input: obj({
    materialId: MaterialId,
    preset: opt(str({ description: "A palette preset of the material; its featured preset when absent." })),
    uniforms: opt(openObj('Uniform values by name (record), over the preset and the controls.')),
    controls: opt(openObj('Common control values by name (shader.list names the eleven).')),
    size: opt(arr(int({ minimum: 1, maximum: 3200 }), { minItems: 2, maxItems: 2, description: 'Width and height, long side 3200; 3200 by 1800 when absent.' })),
    timeMs: opt(num({ minimum: 0, description: "Frame time in ms; the material's anchor when absent." })),
    backend: opt(oneOf(['angle-metal', 'swiftshader'], { description: 'The capture browser backend (swiftshader: software WebGL, no GPU).' })),
    out: opt(str({ description: 'The file the PNG is written to; without it the result carries the bytes.' })),
  }),
  output: result({
    png: opt(str({ contentEncoding: 'base64', description: 'The PNG bytes, base64 (without out).' })),
    file: opt(str({ description: 'The file written (with out): relative to the workspace root when inside it.' })),
    width: int({ minimum: 1, description: 'Width in px.' }),
    height: int({ minimum: 1, description: 'Height in px.' }),
    frameKey: str({ pattern: '^[0-9a-f]{16}$', description: 'The key of the recipe drawn (docs/media.md#shader-materials).' }),
    uniforms: openObj('The resolved uniforms drawn.'),
    timeMs: num({ minimum: 0, description: 'The frame time drawn, ms.' }),
    renderer: str({ description: 'The WebGL renderer that drew it.' }),
  }),
  cli: 'shader render <materialId> --preset <preset> --time <timeMs> --out <file>',
  mcp: 'deck_shader_render',
  annotations: { writes: 'on request' },
  cliInput: (parsed) => {
    const file = given(parsed, 'file')
    const rest = without(parsed.input, ['file'])
    return file === undefined ? rest : { ...rest, out: file }
  },
  example: { materialId: 'paper:mesh-gradient', preset: 'dusk', timeMs: 1200, out: 'renders/mesh-gradient.png' },
  run: async (ctx, input) => {
    const { aspectOf, findMaterial, frameKey, resolveUniforms, FRAME_LONG_SIDE } = await import('../../media/shaders.js')
    const entry = findMaterial(input.materialId)
    const [width, height] = input.size ?? [FRAME_LONG_SIDE, 1800]
    if (Math.max(width, height) !== FRAME_LONG_SIDE) fail('invalid_input', `A frame's long side is ${FRAME_LONG_SIDE} px; [${width}, ${height}] has ${Math.max(width, height)}.`, { pointer: '/size' })
    const preset = input.preset ?? entry.featured
    const uniforms = resolveUniforms(entry, { preset, controls: input.controls, uniforms: input.uniforms }, await deckPresets(ctx))
    const recipe = { materialId: entry.id, preset, uniforms, anchor: input.timeMs ?? entry.anchor, aspect: aspectOf(width, height) }
    const target = input.out === undefined ? undefined : await ctx.outputPath(input.out, '/out')
    const { renderFrames } = await import('../../render/shader.js')
    const run = await renderFrames([{ recipe, width, height }], { backend: input.backend })
    const [frame] = run.frames
    const common = { width, height, frameKey: frameKey(recipe), uniforms, timeMs: recipe.anchor, renderer: run.renderer }
    if (!target) return { png: frame.png.toString('base64'), ...common }
    try {
      await writeInside(ctx.ws.root, target.abs, frame.png)
    } catch (error) {
      if (error instanceof StudioError) throw error
      fail('invalid_input', `Cannot write ${target.shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, { pointer: '/out' })
    }
    const inside = relative(ctx.ws.root, target.abs)
    return { file: inside.startsWith('..') || isAbsolute(inside) ? target.abs : inside.split(sep).join('/'), ...common }
  },
  human: (r: { file?: string; width: number; height: number; frameKey: string }) => `${r.file ? `Wrote ${r.file}` : 'Rendered'} (${r.width} × ${r.height}, frame key ${r.frameKey})`,
})
