/**
 * The first hour of issue 23's "done means", end to end with the real programs: an agent that builds
 * a ten-slide deck from an empty workspace over stdio MCP, and a CI script that imports a Marp talk
 * and ships it as PDF and PPTX with the file names it asked for.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { BIN, commitCount, ROOT, studio, workspace, type TestWorkspace } from '../helpers/studio.js'
import { skipUnlessPresent } from '../helpers/system.js'

const onPath = (program: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as CallToolResult
  assert.ok(!result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`)
  return result.structuredContent
}

describe('an agent builds a ten-slide deck from nothing over stdio', () => {
  let ws: TestWorkspace
  before(async () => {
    ws = await workspace()
  })
  after(() => ws?.cleanup())

  it('creates the deck, adds nine slides of four layouts, writes their text and lists, and leaves a valid deck, one commit a write', async () => {
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries({ ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_AUTHOR: '' })) if (value !== undefined) env[key] = value
    const client = new Client({ name: 'first-hour', version: '1.0.0' })
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', ws.dir, '--author', 'agent:first-hour'], cwd: ws.dir, env, stderr: 'ignore' }))
    try {
      const start = await commitCount(ws.git)
      const created = await call(client, 'deck_create', { name: 'Launch plan', from: 'blank' })
      let revision = (await call(client, 'deck_get_info', {})).revision as number
      let writes = 1
      let after = 'title-1'
      const layouts = ['title-body', 'title-body', 'two-columns', 'section', 'title-body', 'two-columns', 'title-body', 'section', 'title-body']
      for (const [i, layout] of layouts.entries()) {
        const made = await call(client, 'deck_new_slide', { layout, after, baseRevision: revision })
        writes++
        const slide = made.slide as { id: string; title?: string; blocks?: { id: string; slot: string; kind: string }[] }
        revision = made.revision
        after = slide.id
        for (const block of slide.blocks ?? []) {
          const value = block.slot === 'title' ? `Step ${i + 2}` : `Point ${i + 2} in ${block.slot}`
          const written = await call(client, 'deck_update_block', { slideId: slide.id, blockId: block.id, path: '/text', value, baseRevision: revision })
          revision = written.revision
          writes++
        }
        if (!slide.blocks?.length) {
          const titled = await call(client, 'deck_update_slide', { slideId: slide.id, baseRevision: revision, mutations: [{ kind: 'title.set', text: `Part ${i + 2}` }] })
          revision = titled.revision
          writes++
        }
      }
      const info = await call(client, 'deck_get_info', {})
      assert.equal(info.id, created.id)
      assert.equal(info.counts.slides, 10)
      assert.deepEqual(info.sections.flatMap((s: { slides: { id: string }[] }) => s.slides.map((x) => x.id))[0], 'title-1')
      assert.equal((await call(client, 'deck_validate', {})).valid, true)
      assert.equal(await commitCount(ws.git), start + writes, 'one commit per accepted write')
    } finally {
      await client.close()
    }
  })
})

describe('a CI script imports a Markdown talk and ships PDF and PPTX', () => {
  let ws: TestWorkspace
  before(async () => {
    ws = await workspace()
    cpSync(join(ROOT, 'test/fixtures/markdown/marp'), join(ws.dir, 'talk'), { recursive: true })
  })
  after(() => ws?.cleanup())

  it('imports in one commit, exports talk.pdf and talk.pptx with one page and one slide per imported slide', { skip: skipUnlessPresent(onPath('pdfinfo'), 'pdfinfo is not installed (apt-get install poppler-utils)') }, async () => {
    const before = await commitCount(ws.git)
    const imported = await studio(ws.dir, ['import', 'talk/talk.md', '--json'])
    assert.equal(imported.code, 0, imported.stdout + imported.stderr)
    assert.equal(await commitCount(ws.git), before + 1, 'the import is one commit')
    const deckId = imported.json.id as string
    assert.equal(imported.json.created, true)
    const info = await studio(ws.dir, ['info', '--deck', deckId, '--json'])
    assert.equal(info.code, 0, info.stdout)
    const slides = info.json.counts.slides - info.json.counts.skipped
    assert.ok(slides >= 5, `the talk has its slides: ${slides}`)

    const pdf = await studio(ws.dir, ['export', 'pdf', '--deck', deckId, '--theme', 'light', '--out', 'dist/talk.pdf', '--json'])
    assert.equal(pdf.code, 0, pdf.stdout + pdf.stderr)
    assert.ok(existsSync(join(ws.dir, 'dist/talk.pdf')), 'the file named, not a folder of that name')
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [join(ws.dir, 'dist/talk.pdf')], { encoding: 'utf8' }))![1])
    assert.equal(pages, slides)

    const pptx = await studio(ws.dir, ['export', 'pptx', '--deck', deckId, '--theme', 'light', '--out', 'dist/talk.pptx', '--json'])
    assert.equal(pptx.code, 0, pptx.stdout + pptx.stderr)
    const { default: JSZip } = await import('jszip')
    const entries = Object.keys((await JSZip.loadAsync(readFileSync(join(ws.dir, 'dist/talk.pptx')))).files)
    assert.equal(entries.filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).length, slides)
    assert.equal(await commitCount(ws.git), before + 1, 'exports commit nothing')
  })
})
