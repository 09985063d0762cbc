/**
 * Shader frames: a recipe of the material catalogue (src/media/shaders.ts) drawn by WebGL 2 in
 * headless Chromium and read back as PNG bytes.
 *
 * The page compiles the package's vertex shader (its sizing: fit, scale, rotation, offsets) with the
 * entry's fragment shader, sets every uniform of the recipe, draws one full-frame quad at the frame
 * time and encodes the canvas. No GPU is needed: ANGLE draws on SwiftShader (src/render/browser.ts).
 *
 * Geometry of a frame: whatever its pixel size, the material is laid out as if its box were 1600
 * sheet pixels on its long side, so `u_pixelRatio` is long side / 1600 (2 at 3200). A pattern
 * therefore keeps its look at any frame size, and a frame depends on the box's aspect alone, as its
 * frameKey says.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { fail } from '../core/errors.js'
import { findMaterial, type Recipe, type UniformSpec } from '../media/shaders.js'
import { leaseBrowser, type Browser } from './browser.js'

const load = createRequire(import.meta.url)

interface Paper {
  sources: Record<string, string>
  vertex: string
  color: (value: string) => number[]
  noise: string
  empty: string
}
let paper: Promise<Paper> | undefined

/**
 * The package's shader sources. Its vertex shader is not among the entry's exports, so it is read
 * from the installed package's own file beside the entry (the package is never bundled). The noise
 * texture is the package's too: `getShaderNoiseTexture()` builds an `Image` in a browser, so it is
 * called once under a stand-in `window` and `Image` to learn the picture's address.
 */
function paperShaders(): Promise<Paper> {
  return (paper ??= (async () => {
    const main = load.resolve('@paper-design/shaders')
    const mod = (await import(pathToFileURL(main).href)) as Record<string, unknown>
    const { vertexShaderSource } = (await import(pathToFileURL(join(dirname(main), 'vertex-shader.js')).href)) as { vertexShaderSource: string }
    const g = globalThis as Record<string, unknown>
    const saved = { window: g.window, Image: g.Image }
    let noise: string
    try {
      g.window = {}
      g.Image = class {
        src = ''
      }
      noise = (mod.getShaderNoiseTexture as () => { src: string })().src
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete g[k]
      else g[k] = v
    }
    const sources = Object.fromEntries(Object.entries(mod).filter(([k, v]) => k.endsWith('FragmentShader') && typeof v === 'string')) as Record<string, string>
    return { sources, vertex: vertexShaderSource, color: mod.getShaderColorFromString as (v: string) => number[], noise, empty: mod.emptyPixel as string }
  })())
}

/** One uniform as the page sets it: the GL setter and its value. */
type GlValue = ['1f' | '1i' | '2fv' | '4fv', number | number[]]

const FIT = { none: 0, contain: 1, cover: 2 } as const

/** The GL values of a recipe drawn at `width` × `height`. */
export async function glUniforms(recipe: Recipe, width: number, height: number): Promise<Record<string, GlValue>> {
  const entry = findMaterial(recipe.materialId)
  const { color } = await paperShaders()
  const speed = typeof recipe.uniforms.speed === 'number' ? recipe.uniforms.speed : 1
  const out: Record<string, GlValue> = {
    u_time: ['1f', (recipe.anchor * speed) / 1000],
    u_resolution: ['2fv', [width, height]],
    u_pixelRatio: ['1f', Math.max(width, height) / 1600],
    u_fit: ['1f', FIT[entry.fit]],
    u_originX: ['1f', 0.5],
    u_originY: ['1f', 0.5],
    u_worldWidth: ['1f', 0],
    u_worldHeight: ['1f', 0],
    u_imageAspectRatio: ['1f', 1],
  }
  for (const [name, value] of Object.entries(recipe.uniforms)) {
    const spec: UniformSpec | undefined = entry.uniforms[name]
    if (!spec || name === 'speed') continue
    const glName = `u_${name}`
    switch (spec.kind) {
      case 'number':
        out[glName] = ['1f', value as number]
        break
      case 'color':
        out[glName] = ['4fv', color(value as string)]
        break
      case 'colors':
        out[glName] = ['4fv', (value as string[]).flatMap((v) => color(v))]
        out.u_colorsCount = ['1f', (value as string[]).length]
        break
      case 'enum':
        out[glName] = ['1f', spec.values[value as string]]
        break
      case 'boolean':
        out[glName] = ['1i', value ? 1 : 0]
    }
  }
  return out
}

export interface FrameJob {
  recipe: Recipe
  width: number
  height: number
}

export interface Frame {
  png: Buffer
  width: number
  height: number
  /** Milliseconds the page spent drawing and encoding this frame. */
  ms: number
}

/**
 * What the page runs: compile, set textures and uniforms, draw, encode. Plain JavaScript in a string,
 * installed once per page (a TypeScript function would carry the bundler's helpers with it).
 */
const PAGE_SCRIPT = `(() => {
// The last frame's context and program, drawn again for a next frame of the same shader and size (its link is the costly part).
let last
window.endFrames = () => {
  const lose = last && last.gl.getExtension('WEBGL_lose_context')
  if (lose) lose.loseContext()
  last = undefined
}
window.drawFrame = async (job) => {
  const started = performance.now()
  const key = JSON.stringify([job.width, job.height, job.vertex, job.fragment, job.textures, Object.keys(job.uniforms)])
  if (last && last.key === key) return { ...draw(last, job, started), linked: false }
  window.endFrames()
  const canvas = document.createElement('canvas')
  canvas.width = job.width
  canvas.height = job.height
  const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, premultipliedAlpha: false, antialias: false })
  if (!gl) throw new Error('This Chromium offers no WebGL 2.')
  const compile = (type, source) => {
    const shader = gl.createShader(type)
    gl.shaderSource(shader, source)
    gl.compileShader(shader)
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error('The shader did not compile: ' + gl.getShaderInfoLog(shader))
    return shader
  }
  const program = gl.createProgram()
  gl.attachShader(program, compile(gl.VERTEX_SHADER, job.vertex))
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, job.fragment))
  gl.linkProgram(program)
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error('The shader did not link: ' + gl.getProgramInfoLog(program))
  gl.useProgram(program)
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer())
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1]), gl.STATIC_DRAW)
  const position = gl.getAttribLocation(program, 'a_position')
  gl.enableVertexAttribArray(position)
  gl.vertexAttribPointer(position, 2, gl.FLOAT, false, 0, 0)
  gl.viewport(0, 0, job.width, job.height)
  // The textures' samplers and aspect ratios win over uniforms of the same name.
  const fixed = new Set()
  let unit = 0
  for (const [name, src] of Object.entries(job.textures)) {
    const at = gl.getUniformLocation(program, name)
    if (!at) continue
    const image = new Image()
    image.src = src
    await image.decode()
    gl.activeTexture(gl.TEXTURE0 + unit)
    gl.bindTexture(gl.TEXTURE_2D, gl.createTexture())
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image)
    gl.uniform1i(at, unit)
    fixed.add(name)
    const aspect = gl.getUniformLocation(program, name + 'AspectRatio')
    if (aspect) gl.uniform1f(aspect, image.naturalWidth / image.naturalHeight)
    if (aspect) fixed.add(name + 'AspectRatio')
    unit++
  }
  const info = gl.getExtension('WEBGL_debug_renderer_info')
  last = { key, canvas, gl, program, fixed, renderer: String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)) }
  return { ...draw(last, job, started), linked: true }
}
const draw = ({ canvas, gl, program, fixed, renderer }, job, started) => {
  for (const [name, [kind, value]] of Object.entries(job.uniforms)) {
    const at = !fixed.has(name) && gl.getUniformLocation(program, name)
    if (!at) continue
    if (kind === '1f') gl.uniform1f(at, value)
    else if (kind === '1i') gl.uniform1i(at, value)
    else if (kind === '2fv') gl.uniform2fv(at, value)
    else gl.uniform4fv(at, value)
  }
  gl.clearColor(0, 0, 0, 0)
  gl.clear(gl.COLOR_BUFFER_BIT)
  gl.drawArrays(gl.TRIANGLES, 0, 6)
  const url = canvas.toDataURL('image/png')
  return { base64: url.slice(url.indexOf(',') + 1), renderer, ms: performance.now() - started }
}
})()
`

export interface FrameRun {
  frames: Frame[]
  /** The WebGL renderer string of the page (SwiftShader's here). */
  renderer: string
  /** Programs compiled and linked: frames of one shader at one size, one after the other, share one. */
  programs: number
  launchMs: number
}

/**
 * Draws frames in a lease on the process's WebGL browser (unless one is given), each at its own
 * size. `timeoutMs` bounds the whole run: past it the lease is closed (its page with it) and the call
 * fails with one sentence.
 */
export async function renderFrames(jobs: FrameJob[], options: { backend?: 'swiftshader' | 'angle-metal'; timeoutMs?: number; browser?: Browser } = {}): Promise<FrameRun> {
  const backend = options.backend ?? 'swiftshader'
  if (backend === 'angle-metal' && process.platform !== 'darwin') fail('invalid_input', 'The angle-metal backend draws on a Mac GPU; this machine draws with swiftshader.', { pointer: '/backend' })
  const shaders = await paperShaders()
  const prepared = await Promise.all(
    jobs.map(async (job) => {
      const entry = findMaterial(job.recipe.materialId)
      const fragment = shaders.sources[entry.shader]
      if (!fragment) fail('render_failed', `The installed @paper-design/shaders has no ${entry.shader}; ${entry.id} cannot be drawn.`)
      const textures: Record<string, string> = {}
      if (fragment.includes('u_noiseTexture')) textures.u_noiseTexture = shaders.noise
      if (fragment.includes('u_image')) textures.u_image = shaders.empty
      return { vertex: shaders.vertex, fragment, uniforms: await glUniforms(job.recipe, job.width, job.height), width: job.width, height: job.height, textures }
    }),
  )
  const browser = options.browser ?? (await leaseBrowser({ webgl: backend }))
  let timer: NodeJS.Timeout | undefined
  const work = (async () => {
    const page = await browser.page(1)
    try {
      await page.setContent(`<!doctype html><meta charset="utf-8"><script>${PAGE_SCRIPT}</script><body></body>`)
      const frames: Frame[] = []
      let renderer = ''
      let programs = 0
      for (const job of prepared) {
        const drawn = (await page.evaluate(`drawFrame(${JSON.stringify(job)})`)) as { base64: string; renderer: string; ms: number; linked: boolean }
        renderer = drawn.renderer
        if (drawn.linked) programs++
        frames.push({ png: Buffer.from(drawn.base64, 'base64'), width: job.width, height: job.height, ms: drawn.ms })
      }
      return { frames, renderer, programs, launchMs: browser.launchMs }
    } finally {
      await page.evaluate('endFrames()').catch(() => undefined)
      browser.release(page)
    }
  })()
  const bound = options.timeoutMs
    ? new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timeout`)), options.timeoutMs)
      })
    : undefined
  try {
    return await (bound ? Promise.race([work, bound]) : work)
  } catch (error) {
    const message = (error as Error).message ?? String(error)
    if (message === 'timeout') fail('render_failed', `The shader frame took longer than ${Math.round(options.timeoutMs! / 1000)} seconds to draw and was abandoned.`)
    return fail('render_failed', `The shader frame could not be drawn: ${message.split('\n')[0].replace(/^page\.evaluate: (Error: )?/, '')}`)
  } finally {
    if (timer) clearTimeout(timer)
    if (!options.browser) await browser.close()
    work.catch(() => undefined)
  }
}
