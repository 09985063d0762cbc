/**
 * Draws the gallery's stills: one picture per paper:<name> entry under its featured preset, at its
 * anchor, 480 × 270, as docs/images/shaders/<name>.webp (shader.list names them as `stills`).
 * Run after a change to the catalogue: `node --import tsx scripts/shader-stills.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { aspectOf, MATERIALS, presetsFor, resolveUniforms } from '../src/media/shaders.js'
import { renderFrames } from '../src/render/shader.js'
import { STILLS_DIR } from '../src/actions/asset/shader-common.js'

const root = new URL('..', import.meta.url).pathname
const [width, height] = [480, 270]
const presets = presetsFor()
const jobs = MATERIALS.map((entry) => ({
  recipe: { materialId: entry.id, preset: entry.featured, uniforms: resolveUniforms(entry, {}, presets), anchor: entry.anchor, aspect: aspectOf(width, height) },
  width,
  height,
}))
const started = performance.now()
const run = await renderFrames(jobs)
mkdirSync(join(root, STILLS_DIR), { recursive: true })
let bytes = 0
for (const [i, entry] of MATERIALS.entries()) {
  const webp = await sharp(run.frames[i].png).webp({ quality: 70 }).toBuffer()
  writeFileSync(join(root, STILLS_DIR, `${entry.name}.webp`), webp)
  bytes += webp.length
}
console.log(`${MATERIALS.length} stills, ${Math.round(bytes / 1024)} KB, in ${Math.round(performance.now() - started)} ms (${run.renderer})`)
