/**
 * Shader frames in Chromium (SwiftShader): the frames of one run that share a shader and a size are drawn
 * in one WebGL context with one linked program, and each is the same picture, to the byte, as the frame
 * drawn alone. Small frames: what is held does not depend on the size.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { leaseBrowser, type Browser } from '../../../src/render/browser.js'
import { renderFrames, type FrameJob } from '../../../src/render/shader.js'
import { aspectOf, findMaterial, presetsFor, resolveUniforms } from '../../../src/media/shaders.js'

const presets = presetsFor({ theme: 'simple' } as Parameters<typeof presetsFor>[0])

function job(materialId: string, anchor: number, width = 320, height = 180): FrameJob {
  const entry = findMaterial(materialId)
  const uniforms = resolveUniforms(entry, { preset: entry.featured }, presets)
  return { recipe: { materialId: entry.id, preset: entry.featured, uniforms, anchor, aspect: aspectOf(width, height) }, width, height }
}

describe('shader frames', () => {
  let browser: Browser
  before(async () => {
    browser = await leaseBrowser({ webgl: 'swiftshader' })
  })
  after(() => browser?.close())

  it('draws the frames of one shader at one size with one program, each as it is drawn alone', async () => {
    // grain-gradient samples the package's noise texture: a texture kept between frames must stay bound.
    for (const material of ['paper:mesh-gradient', 'paper:grain-gradient']) {
      const jobs = [job(material, 0), job(material, 2400)]
      const together = await renderFrames(jobs, { browser })
      assert.equal(together.programs, 1, `${material}: one program for two frames`)
      // The first frame is drawn as a frame alone is (a new context); the second is the one drawn again.
      const alone = (await renderFrames([jobs[1]], { browser })).frames[0].png
      assert.ok(!together.frames[0].png.equals(alone), `${material}: the anchors draw different pictures`)
      assert.ok(together.frames[1].png.equals(alone), `${material}: the second frame differs from the frame drawn alone`)
    }
  })

  it('links again for another size or another shader', async () => {
    const run = await renderFrames([job('paper:mesh-gradient', 0), job('paper:mesh-gradient', 0, 180, 320), job('paper:water', 0, 180, 320)], { browser })
    assert.equal(run.programs, 3)
    assert.deepEqual(run.frames.map((f) => [f.width, f.height]), [[320, 180], [180, 320], [180, 320]])
  })
})
