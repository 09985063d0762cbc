/**
 * The shared Chromium (src/render/browser.ts): one browser per process and flag set, reused across
 * the passes of a command and the requests of a server, closed when a CLI command ends and after the
 * idle period in `studio serve`, relaunched after a crash. Launches are counted by pointing
 * STUDIO_CHROMIUM at a wrapper that writes its pid to a log and then execs the real Chromium.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { keepFor } from '../../src/core/keep.js'
import { closeBrowsers, findChromium, leaseBrowser } from '../../src/render/browser.js'
import { fixtureWorkspace } from '../helpers/fixture.js'
import { BIN, serve, type Served } from '../helpers/studio.js'

/** A Chromium that logs each launch's pid: its log, the env that selects it, and the pids launched so far. */
function countedChromium() {
  const dir = mkdtempSync(join(tmpdir(), 'studio-chromium-'))
  const log = join(dir, 'launches.log')
  const wrapper = join(dir, 'chromium')
  writeFileSync(wrapper, `#!/bin/sh\necho $$ >> '${log}'\nexec '${findChromium({}).path}' "$@"\n`)
  chmodSync(wrapper, 0o755)
  return {
    dir,
    env: { STUDIO_CHROMIUM: wrapper, TMPDIR: dir },
    launches: (): number[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []),
    // A browser that is still ending may write its profile meanwhile: retried, and never the test's failure.
    cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }),
  }
}

/** Whether a process is running Chromium now (a zombie has no command line). */
function isChromium(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')
  } catch {
    return false
  }
}

/** Processes whose command line names a folder (a browser's profile under the test's TMPDIR). */
function processesNaming(dir: string): number[] {
  const pids: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(dir)) pids.push(Number(name))
    } catch {
      // Gone meanwhile.
    }
  }
  return pids
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.fail(`gave up waiting for ${what}`)
}

describe('the shared browser', () => {
  let ws: Awaited<ReturnType<typeof fixtureWorkspace>>
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws?.cleanup())

  it('launches one Chromium for a CLI export of both themes, and leaves none running when the command ends', async () => {
    const chromium = countedChromium()
    try {
      // A command that kept its browser open would never exit: past the guard it is killed (Playwright would end it cleanly on SIGTERM) and the test fails.
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [BIN, 'export', 'pdf', '--mode', 'native', '--slide-ids', 'title-1', '--out', 'out-cli', '--json'], { cwd: ws.dir, env: { ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', ...chromium.env }, timeout: 120_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
        )
      })
      assert.equal(r.code, 0, `the command did not end by itself: ${r.stdout} ${r.stderr}`)
      assert.deepEqual(JSON.parse(r.stdout).files, ['out-cli/quarterly-review-light.pdf', 'out-cli/quarterly-review-dark.pdf', 'out-cli/quarterly-review-both.zip'])
      const launched = chromium.launches()
      assert.equal(launched.length, 1, `launched ${launched.length} browsers for one export`)
      assert.equal(isChromium(launched[0]), false, 'the browser outlived the command')
      assert.deepEqual(processesNaming(chromium.dir), [])
    } finally {
      chromium.cleanup()
    }
  })

  describe('in studio serve', () => {
    const chromium = countedChromium()
    let server: Served
    before(async () => {
      server = await serve(ws.dir, [], { env: chromium.env })
    })
    after(async () => {
      await server?.stop()
      chromium.cleanup()
    })

    const call = async (id: string, body: unknown) => {
      const r = await request(`${server.url}/api/actions/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      return { status: r.statusCode, json: (await r.body.json()) as any }
    }

    it('keeps one warm Chromium across requests, and launches another after it was killed', async () => {
      const render = await call('render.slide', { slideIds: ['title-1'], themes: ['light'], out: 'out-serve' })
      assert.equal(render.status, 200, JSON.stringify(render.json))
      const exported = await call('export.run', { format: 'pdf', mode: 'native', slideIds: ['title-1'], out: 'out-serve' })
      assert.equal(exported.status, 200, JSON.stringify(exported.json))
      const [first, ...more] = chromium.launches()
      assert.deepEqual(more, [], 'a request launched a browser of its own')
      assert.equal(isChromium(first), true, 'the browser was closed between requests')

      process.kill(first, 'SIGKILL')
      await until(() => !isChromium(first), 'the killed browser to go')
      const again = await call('render.slide', { slideIds: ['title-1'], themes: ['dark'], out: 'out-serve' })
      assert.equal(again.status, 200, JSON.stringify(again.json))
      assert.equal(again.json.renders[0].reused, false)
      assert.equal(chromium.launches().length, 2)
      assert.equal(isChromium(chromium.launches()[1]), true)
    })
  })

  it('gives a fresh lease (a page capture) a browser no other lease shares, closed with it, while the shared one stays warm', async () => {
    const chromium = countedChromium()
    const saved = process.env.STUDIO_CHROMIUM
    process.env.STUDIO_CHROMIUM = chromium.env.STUDIO_CHROMIUM
    keepFor(Infinity)
    const leases: Awaited<ReturnType<typeof leaseBrowser>>[] = []
    try {
      leases.push(await leaseBrowser(), await leaseBrowser())
      assert.equal(chromium.launches().length, 1, 'two shared leases, one browser')
      const capture = await leaseBrowser({ fresh: true })
      const other = await leaseBrowser({ fresh: true })
      leases.push(other)
      const [shared, ofCapture, ofOther] = chromium.launches()
      assert.ok(ofCapture && ofOther, `each fresh lease launches its own: ${chromium.launches().length} launches`)
      await capture.close()
      await until(() => !isChromium(ofCapture), "the fresh lease's browser to end with it")
      assert.equal(isChromium(shared), true, 'the shared browser is kept')
      assert.equal(isChromium(ofOther), true, "another fresh lease's browser is its own")
    } finally {
      await Promise.all(leases.map((l) => l.close()))
      keepFor(0)
      await closeBrowsers()
      if (saved === undefined) delete process.env.STUDIO_CHROMIUM
      else process.env.STUDIO_CHROMIUM = saved
      chromium.cleanup()
    }
  })

  it('closes the browser of studio serve once it has been idle for STUDIO_BROWSER_IDLE_MS, and launches one again on the next render', async () => {
    const chromium = countedChromium()
    const server = await serve(ws.dir, [], { env: { ...chromium.env, STUDIO_BROWSER_IDLE_MS: '300' } })
    try {
      const call = async (body: unknown) => {
        const r = await request(`${server.url}/api/actions/render.slide`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        return { status: r.statusCode, json: (await r.body.json()) as any }
      }
      const first = await call({ slideIds: ['title-body-2'], themes: ['light'], out: 'out-idle' })
      assert.equal(first.status, 200, JSON.stringify(first.json))
      const [pid] = chromium.launches()
      // Its helper processes (zygotes, renderers) end a moment after the browser process.
      await until(() => !isChromium(pid) && processesNaming(chromium.dir).length === 0, 'the idle browser and its processes to end')
      const second = await call({ slideIds: ['title-body-2'], themes: ['dark'], out: 'out-idle' })
      assert.equal(second.status, 200, JSON.stringify(second.json))
      assert.equal(chromium.launches().length, 2)
    } finally {
      await server.stop()
      chromium.cleanup()
    }
  })
})
