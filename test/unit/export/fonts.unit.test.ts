/**
 * The cache of font cuts (.studio/cache/fonts): its key changes with every input the cut's bytes
 * depend on, and an entry is used only when every file it lists is there with its digest. The cut
 * itself, cached and not, runs in test/e2e/fonts.e2e.test.ts.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { fontsCacheKey, readCachedCut } from '../../../src/export/fonts.js'
import type { PythonProbe } from '../../../src/export/programs.js'

const probe: PythonProbe = { python: 'python3', path: process.execPath, runs: true, version: '3.11.2', modules: { fontTools: '4.38.0', brotli: '1.0.9' } }

describe('the key of a cached font cut', () => {
  it('is the same for the same inputs and changes with the interpreter, its versions and the brotli switch', () => {
    const key = fontsCacheKey(probe)
    assert.match(key, /^[0-9a-f]{32}$/)
    assert.equal(fontsCacheKey({ ...probe, modules: { ...probe.modules } }), key)
    const others = [
      fontsCacheKey({ ...probe, modules: { ...probe.modules, fontTools: '4.39.0' } }),
      fontsCacheKey({ ...probe, modules: { ...probe.modules, brotli: false } }),
      fontsCacheKey({ ...probe, version: '3.12.0' }),
      fontsCacheKey({ ...probe, path: '/bin/sh' }),
    ]
    process.env.STUDIO_FONTS_NODE_BROTLI = '1'
    try {
      others.push(fontsCacheKey(probe))
    } finally {
      delete process.env.STUDIO_FONTS_NODE_BROTLI
    }
    assert.equal(new Set([key, ...others]).size, others.length + 1, 'every changed input gives another key')
  })
})

describe('a cached font cut', () => {
  const dirs: string[] = []
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
  const entry = () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-fonts-cache-'))
    dirs.push(dir)
    const files: Record<string, string> = {}
    for (const [file, text] of [['Inter-Regular.ttf', 'regular'], ['OFL.txt', 'licence']]) {
      writeFileSync(join(dir, file), text)
      files[file] = createHash('sha256').update(text).digest('hex')
    }
    writeFileSync(join(dir, 'cut.json'), JSON.stringify({ fontTools: '4.38.0', brotli: 'module', files }))
    return dir
  }

  it('is read when every file is there with its digest', () => {
    assert.deepEqual(readCachedCut(entry())?.fontTools, '4.38.0')
  })

  it('is not used when a file changed, went missing or was added, or when it has no report', () => {
    const changed = entry()
    writeFileSync(join(changed, 'Inter-Regular.ttf'), 'regulaR')
    assert.equal(readCachedCut(changed), undefined)
    const missing = entry()
    rmSync(join(missing, 'OFL.txt'))
    assert.equal(readCachedCut(missing), undefined)
    const extra = entry()
    writeFileSync(join(extra, 'Stale-Regular.ttf'), 'x')
    assert.equal(readCachedCut(extra), undefined)
    const bare = entry()
    rmSync(join(bare, 'cut.json'))
    assert.equal(readCachedCut(bare), undefined)
    assert.equal(readCachedCut(join(bare, 'nowhere')), undefined)
  })
})
