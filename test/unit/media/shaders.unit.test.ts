/**
 * The paper:<name> catalogue against the installed @paper-design/shaders: every uniform an entry
 * names is declared by its fragment shader with the matching GLSL type, and every uniform the shader
 * declares is either in the entry or set by the page. Then presets, controls and frame keys.
 */
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { describe, it } from 'node:test'
import { pathToFileURL } from 'node:url'
import {
  CATEGORIES,
  CONTROLS,
  MATERIALS,
  controlsFrom,
  controlsOf,
  frameKey,
  frameSize,
  presetsFor,
  resolveUniforms,
  writeControls,
  type Recipe,
} from '../../../src/media/shaders.js'
import { StudioError } from '../../../src/core/errors.js'

const paper = (await import(pathToFileURL(createRequire(import.meta.url).resolve('@paper-design/shaders')).href)) as Record<string, unknown>

/** Uniforms the page sets for every frame (time, size, sizing, textures), never stored in a recipe. */
const PAGE_SET = new Set(['u_time', 'u_resolution', 'u_pixelRatio', 'u_fit', 'u_originX', 'u_originY', 'u_worldWidth', 'u_worldHeight', 'u_colorsCount', 'u_noiseTexture', 'u_image', 'u_imageAspectRatio'])
const GLSL = { number: 'float', enum: 'float', color: 'vec4', colors: 'vec4[]', boolean: 'bool' } as const

describe('the paper:<name> catalogue', () => {
  it('names, for every entry, exactly the uniforms its fragment shader declares, with their GLSL types', () => {
    const problems: string[] = []
    for (const entry of MATERIALS) {
      const source = paper[entry.shader]
      if (typeof source !== 'string') {
        problems.push(`${entry.id}: no ${entry.shader} in the package`)
        continue
      }
      const declared = new Map([...source.matchAll(/uniform\s+(\w+)\s+(u_\w+)(\[[^\]]*\])?;/g)].map((m) => [m[2], `${m[1]}${m[3] ? '[]' : ''}`]))
      for (const [name, spec] of Object.entries(entry.uniforms)) {
        if (['scale', 'rotation', 'offsetX', 'offsetY', 'speed'].includes(name)) continue
        const type = declared.get(`u_${name}`)
        if (!type) problems.push(`${entry.id}: u_${name} is not declared`)
        else if (type !== GLSL[spec.kind]) problems.push(`${entry.id}: u_${name} is ${type}, the entry says ${spec.kind}`)
      }
      for (const name of declared.keys()) {
        if (PAGE_SET.has(name) || ['u_scale', 'u_rotation', 'u_offsetX', 'u_offsetY'].includes(name)) continue
        if (!entry.uniforms[name.slice(2)]) problems.push(`${entry.id}: ${name} is declared but not in the entry`)
      }
    }
    assert.deepEqual(problems, [])
  })

  it('files every entry under one of five chips, with eleven controls each holding a range and a sentence', () => {
    assert.equal(CATEGORIES.length, 5)
    for (const c of CATEGORIES) assert.ok(MATERIALS.some((m) => m.category === c.id), c.id)
    assert.equal(CONTROLS.length, 11)
    for (const control of CONTROLS) assert.ok(control.min < control.max && /^[A-Z].*\.$/.test(control.sentence), control.name)
    assert.equal(new Set(MATERIALS.map((m) => m.id)).size, MATERIALS.length)
    for (const entry of MATERIALS) {
      assert.match(entry.id, /^paper:[a-z0-9-]+$/)
      assert.ok(presetsFor().some((p) => p.name === entry.featured), `${entry.id} features ${entry.featured}`)
      for (const [control, targets] of Object.entries(entry.drive)) for (const t of targets!) assert.equal(entry.uniforms[t]?.kind, 'number', `${entry.id} ${control} → ${t}`)
    }
  })

  it("computes the brand presets from the deck's theme under its brand kit", () => {
    const presets = presetsFor({ theme: 'simple', brandKit: { palette: { accent: '#ff0055', paper: '#fafafa' } } })
    const brand = presets.find((p) => p.name === 'brand')!
    assert.equal(brand.palette.back, '#fafafa')
    assert.equal(brand.palette.colors[0], '#ff0055')
    const plain = presetsFor({ theme: 'simple' }).find((p) => p.name === 'brand')!
    assert.equal(plain.palette.colors[0], '#2f5bea', "Simple's accent without a kit")
    const mesh = MATERIALS.find((m) => m.name === 'mesh-gradient')!
    assert.deepEqual((resolveUniforms(mesh, { preset: 'brand' }, presets).colors as string[])[0], '#ff0055')
  })

  it('resolves controls onto uniforms: sizing set, blend/intensity/grain mapped onto the range, colours recoloured', () => {
    const presets = presetsFor()
    const grain = MATERIALS.find((m) => m.name === 'grain-gradient')!
    const base = resolveUniforms(grain, {}, presets)
    const moved = resolveUniforms(grain, { controls: { speed: 0.5, scale: 2, blend: 0.1, intensity: 1, grain: 0, hue: 180 } }, presets)
    assert.deepEqual([moved.speed, moved.scale, moved.softness, moved.intensity, moved.noise], [0.5, 2, 0.1, 1, 0])
    assert.notEqual(moved.colorBack, base.colorBack)
    // A control at the preset's own position changes nothing; uniforms named win over controls.
    assert.deepEqual(resolveUniforms(grain, { controls: controlsFrom(grain, base) }, presets), base)
    assert.equal(resolveUniforms(grain, { controls: { blend: 0.1 }, uniforms: { softness: 0.7 } }, presets).softness, 0.7)
    // A control written on a block keeps uniforms set by hand, and only moves what it drives.
    const written = writeControls(grain, { preset: 'ember', uniforms: { ...base, noise: 0.9 } }, { intensity: 0.2 }, presets)
    assert.deepEqual([written.uniforms.noise, written.uniforms.intensity, written.controls.intensity], [0.9, 0.2, 0.2])
    assert.deepEqual(controlsOf(MATERIALS.find((m) => m.name === 'dithering')!).map((c) => c.name), ['speed', 'scale', 'rotation', 'offsetX', 'offsetY', 'hue', 'saturation', 'brightness'])
  })

  it('refuses unknown uniforms and controls, values out of range and unknown presets, each with its pointer', () => {
    const presets = presetsFor()
    const mesh = MATERIALS.find((m) => m.name === 'mesh-gradient')!
    const refused = (fn: () => unknown) => {
      try {
        fn()
      } catch (error) {
        return [(error as StudioError).code, (error as StudioError).extra.pointer]
      }
      return undefined
    }
    assert.deepEqual(refused(() => resolveUniforms(mesh, { uniforms: { nope: 1 } }, presets)), ['unknown_field', '/uniforms/nope'])
    assert.deepEqual(refused(() => resolveUniforms(mesh, { uniforms: { distortion: 2 } }, presets)), ['invalid_input', '/uniforms/distortion'])
    assert.deepEqual(refused(() => resolveUniforms(mesh, { uniforms: { colors: ['red'] } }, presets)), ['invalid_input', '/uniforms/colors'])
    assert.deepEqual(refused(() => resolveUniforms(mesh, { controls: { blend: 0.5 } }, presets)), ['invalid_input', '/controls/blend'])
    assert.deepEqual(refused(() => resolveUniforms(mesh, { controls: { speed: 9 } }, presets)), ['invalid_input', '/controls/speed'])
    assert.deepEqual(refused(() => resolveUniforms(mesh, { preset: 'nope' }, presets)), ['invalid_input', '/preset'])
  })

  it('keys a frame by its recipe: 16 hex, key order irrelevant, any change of uniform, anchor or aspect moves it', () => {
    const mesh = MATERIALS.find((m) => m.name === 'mesh-gradient')!
    const uniforms = resolveUniforms(mesh, {}, presetsFor())
    const recipe: Recipe = { materialId: mesh.id, preset: 'dusk', uniforms, anchor: 2400, aspect: 1.7778 }
    const key = frameKey(recipe)
    assert.match(key, /^[0-9a-f]{16}$/)
    assert.equal(frameKey({ aspect: 1.7778, anchor: 2400, uniforms: Object.fromEntries(Object.entries(uniforms).reverse()), preset: 'dusk', materialId: mesh.id }), key)
    for (const moved of [{ ...recipe, anchor: 2401 }, { ...recipe, aspect: 1 }, { ...recipe, uniforms: { ...uniforms, swirl: 0.2 } }, { ...recipe, preset: 'ember' }]) assert.notEqual(frameKey(moved), key)
    assert.deepEqual(frameSize(16 / 9), [3200, 1800])
    assert.deepEqual(frameSize(0.5), [1600, 3200])
  })
})
