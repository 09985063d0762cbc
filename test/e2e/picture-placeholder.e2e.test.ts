/**
 * The picture placeholder (docs/model.md#picture-placeholders) as an agent meets it on the CLI: a new
 * picture-and-caption slide holds one, it draws nothing, exports go through with a warning, and
 * asset.add then block.set /asset fills it under the same block id.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import sharp from 'sharp'
import { newUserWorkspace, USER_PHOTO } from '../helpers/fixture.js'
import { cliInOneProcess, studio } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

const pixels = async (file: string) => (await sharp(file).raw().toBuffer()).toString('base64')

describe('a picture placeholder on a new picture-and-caption slide', () => {
  it('is in the model, draws nothing, exports to PPTX and PDF with a warning, and asset.add then block.set /asset fills it', { timeout: 240_000 }, async () => {
    const ws = await newUserWorkspace()
    const run = async (args: string[]) => {
      const r = await studio(ws.dir, [...args, '--json'])
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`)
      return r.json
    }
    try {
      const made = await run(['slide', 'new', '--layout', 'picture-caption', '--after', 'title-1', '--rev', '0'])
      const slideId: string = made.slide.id
      assert.deepEqual(made.slide.blocks.find((b: { slot: string }) => b.slot === 'media'), { id: 'media', kind: 'picture', slot: 'media' })
      const lint = await run(['deck', 'lint'])
      assert.ok(lint.findings.some((f: { slideId: string; rule: string; blockId?: string }) => f.slideId === slideId && f.rule === 'empty-placeholder' && f.blockId === 'media'))
      assert.ok(!lint.findings.some((f: { rule: string; blockId?: string }) => f.rule === 'missing-alt' && f.blockId === 'media'))

      // The same slide without the block: its render is the placeholder's, pixel for pixel.
      const twin: string = (await run(['slide', 'duplicate', slideId])).slides[0].id
      await run(['block', 'remove', `${twin}#media`])
      const rendered = await run(['render', `${slideId},${twin}`, '--theme', 'light'])
      const file = (id: string) => join(ws.dir, rendered.renders.find((r: { slideId: string }) => r.slideId === id).file)
      const empty = await pixels(file(slideId))
      assert.equal(empty, await pixels(file(twin)))

      const pptx = await run(['export', 'pptx', '--mode', 'native', '--theme', 'light', '--out', 'out/talk.pptx'])
      assert.ok(pptx.report.warnings.some((w: string) => w.includes(`${slideId}#media`)), JSON.stringify(pptx.report.warnings))
      const pdf = await run(['export', 'pdf', '--theme', 'light', '--slide-ids', slideId, '--out', 'out/talk.pdf'])
      assert.equal(pdf.report.pages, 1)
      assert.ok(pdf.report.warnings.some((w: string) => /empty picture placeholder/.test(w)))
      assert.ok(readFileSync(join(ws.dir, 'out/talk.pdf')).subarray(0, 5).toString() === '%PDF-')

      // What needs the picture's asset says how to give it one, and writes nothing.
      for (const args of [['block', 'alt', `${slideId}#media`, 'The harbour'], ['block', 'dither', `${slideId}#media`, '--pattern', 'bayer8']]) {
        const refused = await studio(ws.dir, [...args, '--json'])
        assert.equal(refused.json?.code, 'invalid_input', `${args.join(' ')}: ${refused.stdout}${refused.stderr}`)
        assert.match(refused.json.message, /empty placeholder.*asset\.add, then block\.set \/asset/)
      }
      assert.equal((await run(['info'])).revision, 3)
      const asset = (await run(['asset', 'add', USER_PHOTO, '--role', 'picture', '--alt', 'The harbour'])).asset.id
      const filled = await run(['block', 'set', `${slideId}#media`, '/asset', asset])
      assert.deepEqual(filled.block, { id: 'media', kind: 'picture', slot: 'media', asset })
      const after = await run(['render', slideId, '--theme', 'light'])
      assert.notEqual(await pixels(join(ws.dir, after.renders[0].file)), empty, 'the filled picture is drawn')
      // A picture slide document inserted without its picture gets the placeholder too.
      const slide = JSON.stringify({ layout: 'picture-left', blocks: [{ id: 'title', kind: 'heading', slot: 'title', text: 'The harbour' }] })
      const r = await studio(ws.dir, ['slide', 'insert', '--after', slideId, '--json'], { stdin: slide })
      assert.equal(r.code, 0, r.stdout + r.stderr)
      assert.deepEqual(r.json.slide.blocks.map((b: { id: string; kind: string; asset?: string }) => [b.id, b.kind, b.asset]), [['title', 'heading', undefined], ['media', 'picture', undefined]])
      const linted = await run(['deck', 'lint'])
      assert.ok(!linted.findings.some((f: { slideId: string; blockId?: string }) => f.slideId === slideId && f.blockId === 'media'))
    } finally {
      ws.cleanup()
    }
  })
})
