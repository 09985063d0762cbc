/**
 * The hosted store (issue 27; src/hosted/deck-store.ts, docs/hosting.md): several `studio serve --store
 * hosted` instances, and `studio` commands with STUDIO_STORE=hosted, on one real PostgreSQL (a throw-away
 * cluster, test/helpers/postgres.ts) and one S3-compatible server on loopback (s3rver: it enforces no
 * policy; the digests studio checks are its own). No instance has a workspace folder.
 *
 * - A write on one instance is what every other serves a second later, with NOTIFY off (the poll of
 *   the version row alone), and its history is there too.
 * - 400 racers with one baseRevision, over three instances and four transports (HTTP, the page's
 *   window calls, MCP over streamable HTTP, the CLI), 20 rounds: exactly one accepted per round, every
 *   other answered 409 with the document as the winner left it.
 * - An instance killed with SIGKILL mid-write, 50 times: every acknowledged write is in every
 *   instance's copy and history; a change is whole or absent (the deck's slides and its manifest always
 *   agree), whether the kill came before the commit, right after it, or at a random moment.
 */
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import S3rver from 's3rver'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { BIN, serve, studio, workspace, type Served } from '../helpers/studio.js'
import { POSTGRES_MISSING, postgresBin, startPostgres, type Cluster } from '../helpers/postgres.js'
import { skipUnlessPresent } from '../helpers/system.js'
import { until } from '../helpers/until.js'
import { createRequire } from 'node:module'
import { CHROMIUM_FLAGS, findChromium } from '../../src/render/browser.js'

const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')

const skip = skipUnlessPresent(postgresBin(), POSTGRES_MISSING)
const TOKEN = 'hosted-e2e-bearer-0123456789abcdef0123'
const BUCKET = 'studio-hosted'
const auth = { authorization: `Bearer ${TOKEN}` }

interface Answer {
  status: number
  body: any
}

async function call(base: string, id: string, input: object, deck?: string, route: 'actions' | 'window' = 'actions', author?: string): Promise<Answer> {
  const res = await fetch(`${base}/api/${route}/${id}${deck ? `?deck=${deck}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth, ...(route === 'window' ? { 'x-studio-client': 'abcdefghijkl', origin: base, 'sec-fetch-site': 'same-origin' } : {}), ...(author ? { 'x-studio-author': author } : {}) },
    body: JSON.stringify(input),
  })
  return { status: res.status, body: await res.json() }
}

describe('the hosted store: instances on one PostgreSQL and one bucket', { skip }, () => {
  let cluster: Cluster
  let s3: S3rver
  let s3Dir: string
  let endpoint: string
  let cwd: string
  const env = (url: string, extra: Record<string, string> = {}) => ({
    STUDIO_STORE: 'hosted',
    STUDIO_DATABASE_URL: url,
    STUDIO_S3_BUCKET: BUCKET,
    STUDIO_S3_ENDPOINT: endpoint,
    STUDIO_S3_FORCE_PATH_STYLE: '1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
    STUDIO_TOKEN: TOKEN,
    ...extra,
  })

  before(async () => {
    cluster = await startPostgres()
    s3Dir = mkdtempSync(join(tmpdir(), 'studio-hosted-s3-'))
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] })
    endpoint = `http://127.0.0.1:${(await s3.run()).port}`
    // Instances run in a folder that is no workspace: a hosted instance needs none.
    cwd = mkdtempSync(join(tmpdir(), 'studio-hosted-cwd-'))
  })
  after(async () => {
    await s3?.close()
    await cluster?.stop()
    rmSync(s3Dir, { recursive: true, force: true })
    rmSync(cwd, { recursive: true, force: true })
  })

  it('serves on every instance, a second later, what one instance wrote, with NOTIFY off; history too', async () => {
    const url = await cluster.database('fresh')
    const [a, b] = await Promise.all([serve(cwd, [], { env: env(url, { STUDIO_STORE_NOTIFY: '0' }) }), serve(cwd, [], { env: env(url, { STUDIO_STORE_NOTIFY: '0' }) })])
    try {
      const created = await call(a.url, 'deck.create', { name: 'Made on A', id: 'fresh' })
      assert.equal(created.status, 200, JSON.stringify(created.body))
      let revision = created.body.revision as number
      for (let i = 0; i < 6; i++) {
        const [writer, reader] = i % 2 ? [b, a] : [a, b]
        // The writer itself must know the newest revision: a write first catches up with the store.
        const renamed = await call(writer.url, 'deck.rename', { name: `Name ${i}`, baseRevision: revision }, 'fresh')
        assert.equal(renamed.status, 200, JSON.stringify(renamed.body))
        revision = renamed.body.revision
        // The promise: a read a second after the write's answer sees it, on any instance.
        await new Promise((r) => setTimeout(r, 1000))
        const read = await call(reader.url, 'deck.info', {}, 'fresh')
        assert.equal(read.status, 200, JSON.stringify(read.body))
        assert.deepEqual([read.body.title, read.body.revision], [`Name ${i}`, revision], `round ${i}: the reader serves the write`)
      }
      // History is the change log on both: one mutation per accepted write, with its action and author.
      for (const served of [a, b]) {
        const diff = await call(served.url, 'version.diff', { from: 0 }, 'fresh')
        assert.equal(diff.status, 200, JSON.stringify(diff.body))
        assert.equal(diff.body.count, 6, JSON.stringify(diff.body).slice(0, 400))
      }
      // A slide lease taken on one instance holds on the other (leases are state every instance shares):
      // another author's write to the slide is refused there, until forced or released.
      const slide = 'title-1'
      const leased = await call(a.url, 'slide.lease', { slideId: slide }, 'fresh', 'actions', 'Ana')
      assert.equal(leased.status, 200, JSON.stringify(leased.body))
      const blocked = await call(b.url, 'slide.skip', { slideIds: [slide], skip: true, baseRevision: revision }, 'fresh', 'actions', 'Ben')
      assert.deepEqual([blocked.status, blocked.body.code, blocked.body.holder?.author], [409, 'leased', 'Ana'], JSON.stringify(blocked.body).slice(0, 300))
      assert.equal((await call(a.url, 'slide.lease', { slideId: slide, release: true }, 'fresh', 'actions', 'Ana')).status, 200)
      const freed = await call(b.url, 'slide.skip', { slideIds: [slide], skip: true, baseRevision: revision }, 'fresh', 'actions', 'Ben')
      assert.equal(freed.status, 200, JSON.stringify(freed.body).slice(0, 300))
      // `studio deck pull` from a hosted studio brings the deck's change log as commits: one per change,
      // with its author, time, subject and trailers; the deck is the one the studio serves.
      const checkout = await workspace()
      try {
        const pulled = await studio(checkout.dir, ['deck', 'pull', 'fresh', '--from', a.url, '--token', TOKEN, '--json'], { env: { HOME: checkout.dir } })
        assert.equal(pulled.code, 0, pulled.stdout + pulled.stderr)
        const log = (await checkout.git('log', '--format=%s|%an|%(trailers:key=Studio-Action,valueonly)', '--', 'decks/fresh')).split('\n').filter(Boolean).reverse()
        assert.equal(pulled.json.commits, 8)
        assert.equal(log.length, 8, log.join('\n'))
        assert.match(log[0], /^deck\.create fresh r0\|/)
        assert.deepEqual(log.map((line) => line.split('|')[2].trim()), ['deck.create', ...Array(6).fill('deck.rename'), 'slide.skip'])
        const served = await call(a.url, 'deck.get', {}, 'fresh')
        const local = await studio(checkout.dir, ['deck', 'get', '--deck', 'fresh', '--json'])
        assert.deepEqual(local.json, served.body)
        // And `studio deck push` of a deck the studio lacks sends its history: every commit one change,
        // served by the other instance with its history.
        for (const args of [['deck', 'create', 'Made here', '--id', 'here'], ['deck', 'rename', 'Named here', '--deck', 'here'], ['slide', 'new', '--layout', 'title-body', '--deck', 'here']]) {
          const done = await studio(checkout.dir, [...args, '--json'], { env: { STUDIO_AUTHOR: 'Cleo' } })
          assert.equal(done.code, 0, done.stdout + done.stderr)
        }
        const pushed = await studio(checkout.dir, ['deck', 'push', 'here', '--to', a.url, '--token', TOKEN, '--json'], { env: { HOME: checkout.dir } })
        assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr)
        assert.deepEqual([pushed.json.commits, pushed.json.revision], [3, 2])
        const there = await until('the pushed deck on the other instance', () => call(b.url, 'version.diff', { from: 0 }, 'here'), (r) => r.status === 200)
        assert.equal(there.body.count, 2, JSON.stringify(there.body).slice(0, 300))
        assert.deepEqual((await call(b.url, 'deck.get', {}, 'here')).body, (await studio(checkout.dir, ['deck', 'get', '--deck', 'here', '--json'])).json)
      } finally {
        checkout.cleanup()
      }
      // /readyz names the store and how far the replica is.
      const ready = await fetch(`${b.url}/readyz`)
      const readyBody = await ready.json()
      assert.equal(ready.status, 200, JSON.stringify(readyBody))
      assert.equal(readyBody.checks.store, 'ok')
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
  })

  it('stops the other two of three instances within 5 s of a kill switch turned on at one, with NOTIFY off; restores a version saved on another', async () => {
    const url = await cluster.database('switches')
    const quiet = { STUDIO_STORE_NOTIFY: '0' }
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => serve(cwd, [], { env: env(url, quiet) })))
    try {
      assert.equal((await call(a.url, 'deck.create', { name: 'Switches', id: 'switches' })).status, 200)
      const comment = (on: Served) => call(on.url, 'comment.add', { anchor: { kind: 'slide', slideId: 'title-1' }, body: { text: 'Is this on?' } }, 'switches')
      // Comments work on each (one at a time: two at once on one deck's threads, one is refused as stale).
      for (const other of [b, c]) assert.equal((await comment(other)).status, 200)
      assert.equal((await call(a.url, 'admin.flag', { name: 'comments', on: true })).status, 200)
      for (const other of [b, c]) {
        const refused = await until('a switch turned on at A refused on another instance within 5 s', () => comment(other), (r) => r.status === 503, 5000, 100)
        assert.equal(refused.body.details.flag, 'comments')
      }
      assert.equal((await call(c.url, 'admin.flag', { name: 'comments', on: false })).status, 200)
      await until('comments back on A within 5 s', () => comment(a), (r) => r.status === 200, 5000, 100)
      // Versions: saved on A, the deck renamed on B, version 1 restored on C: the title of version 1 again.
      let revision = (await call(a.url, 'deck.info', {}, 'switches')).body.revision as number
      const saved = await call(a.url, 'version.save', { note: 'Before the rename' }, 'switches')
      assert.equal(saved.status, 200, JSON.stringify(saved.body))
      revision = saved.body.revision ?? revision
      const renamed = await call(b.url, 'deck.rename', { name: 'Renamed on B', baseRevision: revision }, 'switches')
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body))
      const restored = await call(c.url, 'version.restore', { n: 1, baseRevision: renamed.body.revision }, 'switches')
      assert.equal(restored.status, 200, JSON.stringify(restored.body).slice(0, 300))
      // A (notifications off) serves it within its second.
      await until('A serves the restored version', () => call(a.url, 'deck.info', {}, 'switches'), (r) => r.body.title === 'Switches' && r.body.revision === restored.body.revision, 2000, 50)
    } finally {
      await Promise.all([a, b, c].map((s) => s.stop()))
    }
  })

  it('accepts exactly one of 400 racers with one baseRevision over three instances and four transports, 20 rounds', async () => {
    const url = await cluster.database('racers')
    const instances = await Promise.all([0, 1, 2].map(() => serve(cwd, [], { env: env(url) })))
    const clients: Client[] = []
    try {
      const created = await call(instances[0].url, 'deck.create', { name: 'Race', id: 'race' })
      assert.equal(created.status, 200, JSON.stringify(created.body))
      for (const instance of instances) {
        const client = new Client({ name: 'hosted-racer', version: '1.0.0' })
        await client.connect(new StreamableHTTPClientTransport(new URL(`${instance.url}/mcp?deck=race`), { requestInit: { headers: auth } }))
        clients.push(client)
      }
      let revision = created.body.revision as number
      const ROUNDS = 20
      const CLI_PER_ROUND = 2
      const PER_INSTANCE = (400 - CLI_PER_ROUND) / 3 // 132.67: the remainder goes to the first instances
      for (let round = 0; round < ROUNDS; round++) {
        const base = revision
        const racers: Promise<{ name: string; accepted: boolean; current?: number; how: string }>[] = []
        let n = 0
        const racer = (how: string, name: string, run: () => Promise<{ accepted: boolean; current?: number }>) => racers.push(run().then((r) => ({ ...r, name, how })))
        for (let k = 0; k < 400 - CLI_PER_ROUND; k++) {
          const instance = Math.min(2, Math.floor(k / PER_INSTANCE))
          const served = instances[instance]
          const name = `r${round} n${n++}`
          const transport = k % 3
          if (transport === 0) {
            racer(`H@${instance}`, name, async () => {
              const answer = await call(served.url, 'deck.rename', { name, baseRevision: base }, 'race')
              if (answer.status !== 200) assert.equal(answer.status, 409, JSON.stringify(answer.body))
              return { accepted: answer.status === 200, current: answer.body.currentRevision }
            })
          } else if (transport === 1) {
            racer(`P@${instance}`, name, async () => {
              const answer = await call(served.url, 'deck.rename', { name, baseRevision: base }, 'race', 'window')
              if (answer.status !== 200) assert.equal(answer.status, 409, JSON.stringify(answer.body))
              return { accepted: answer.status === 200, current: answer.body.currentRevision }
            })
          } else {
            racer(`M@${instance}`, name, async () => {
              const answer = (await clients[instance].callTool({ name: 'deck_rename', arguments: { name, baseRevision: base } })) as { isError?: boolean; structuredContent?: any; content?: any }
              const body = answer.structuredContent ?? JSON.parse(answer.content?.[0]?.text ?? '{}')
              if (answer.isError) assert.equal(body.code, 'stale_revision', JSON.stringify(body))
              return { accepted: !answer.isError, current: body.currentRevision }
            })
          }
        }
        for (let c = 0; c < CLI_PER_ROUND; c++) {
          const name = `r${round} cli${c}`
          racer('C', name, async () => {
            const out = await studio(cwd, ['deck', 'rename', name, '--deck', 'race', '--rev', String(base), '--json'], { env: env(url) })
            if (out.code !== 0) assert.equal(out.json?.code, 'stale_revision', out.stdout + out.stderr)
            return { accepted: out.code === 0, current: out.json?.currentRevision }
          })
        }
        const outcomes = await Promise.all(racers)
        assert.equal(outcomes.length, 400)
        const accepted = outcomes.filter((o) => o.accepted)
        assert.equal(accepted.length, 1, `round ${round}: exactly one accepted, got ${accepted.map((o) => `${o.name} via ${o.how}`).join(', ') || 'none'}`)
        // Every refusal carries the revision the winner left, wherever it was answered.
        const wrong = outcomes.filter((o) => !o.accepted && o.current !== base + 1)
        assert.deepEqual(wrong.slice(0, 3), [], `round ${round}: refusals name revision ${base + 1}`)
        revision = base + 1
        // Every instance serves the winner's name (a write first catches up; a read within a second).
        await until(
          `round ${round}: every instance serves ${accepted[0].name}`,
          () => Promise.all(instances.map((s) => call(s.url, 'deck.info', {}, 'race'))),
          (infos) => infos.every((i) => i.body.title === accepted[0].name && i.body.revision === revision),
          5000,
        )
      }
      // Nothing acknowledged was lost: one mutation per round after the deck was made, on every instance.
      for (const instance of instances) {
        const diff = await call(instance.url, 'version.diff', { from: 0 }, 'race')
        assert.equal(diff.body.count, ROUNDS)
      }
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)))
      await Promise.all(instances.map((s) => s.stop()))
    }
  })

  it('loses no acknowledged write, and shows no half-written one, over 50 kills of an instance mid-write', async () => {
    const url = await cluster.database('kills')
    const watcher = await serve(cwd, [], { env: env(url) })
    const DECKS = ['kills-a', 'kills-b']
    try {
      for (const id of DECKS) {
        const created = await call(watcher.url, 'deck.create', { name: id, id })
        assert.equal(created.status, 200, JSON.stringify(created.body))
      }
      const acknowledged = new Map<string, { slideId: string; revision: number }[]>(DECKS.map((id) => [id, []]))
      /** A deck is whole when every slide its manifest lists is there (slide.new writes the slide and the manifest in one change). */
      const whole = (body: any) => Array.isArray(body?.manifest?.sections) && body.manifest.sections.every((s: { slides: string[] }) => s.slides.every((id) => body.slides?.[id]))
      let halfSeen = ''
      let watching = true
      const watch = (async () => {
        for (let n = 0; watching; n++) {
          const read = await call(watcher.url, 'deck.get', {}, DECKS[n % 2]).catch(() => undefined)
          if (read && (read.status !== 200 || !whole(read.body))) halfSeen ||= JSON.stringify(read.body).slice(0, 300)
          await new Promise((r) => setTimeout(r, 20))
        }
      })()
      const FAULTS = ['hosted-in-commit', 'hosted-after-commit']
      // Two instances killed side by side, 25 times each, each writing its own deck.
      const killer = async (deckId: string, first: number) => {
        for (let kill = first; kill < first + 25; kill++) {
          // A third of the kills at a point of the commit (inside PostgreSQL's transaction, or right after
          // it and before the answer), the rest at a random moment of a stream of writes.
          const fault = kill % 3 < 2 ? FAULTS[kill % 3] : undefined
          const victim = await serve(cwd, [], { env: env(url, fault ? { STUDIO_FAULT: fault } : {}) })
          const exited = new Promise<void>((resolve) => {
            const poll = setInterval(() => {
              try {
                process.kill(victim.pid, 0)
              } catch {
                clearInterval(poll)
                resolve()
              }
            }, 10)
          })
          const kill9 = () => {
            try {
              process.kill(victim.pid, 'SIGKILL')
            } catch {
              // gone already
            }
          }
          if (!fault) setTimeout(kill9, 30 + Math.floor(Math.random() * 400))
          let revision = (await call(watcher.url, 'deck.info', {}, deckId)).body.revision as number
          for (let i = 0; i < 40; i++) {
            const slideId = `k${kill}-${i}`
            const answer = await call(victim.url, 'slide.new', { layout: 'title-body', id: slideId, baseRevision: revision }, deckId).catch(() => undefined)
            if (!answer) break // the instance is gone: this write was not acknowledged
            if (answer.status === 200) {
              acknowledged.get(deckId)!.push({ slideId, revision: answer.body.revision })
              revision = answer.body.revision
            } else {
              assert.equal(answer.status, 409, JSON.stringify(answer.body))
              revision = answer.body.currentRevision
            }
          }
          if (!fault) kill9()
          await exited
        }
      }
      await Promise.all([killer(DECKS[0], 0), killer(DECKS[1], 25)])
      watching = false
      await watch
      assert.equal(halfSeen, '', 'the watcher never read a half-written deck')
      // Every acknowledged slide is in its deck, on the watcher and on an instance started afresh.
      const fresh = await serve(cwd, [], { env: env(url) })
      try {
        for (const served of [watcher, fresh]) {
          for (const deckId of DECKS) {
            const deck = await call(served.url, 'deck.get', {}, deckId)
            assert.equal(deck.status, 200, JSON.stringify(deck.body).slice(0, 300))
            assert.ok(whole(deck.body), 'the deck is whole')
            const ids = new Set<string>(deck.body.manifest.sections.flatMap((s: { slides: string[] }) => s.slides))
            const missing = acknowledged.get(deckId)!.filter((w) => !ids.has(w.slideId))
            assert.deepEqual(missing, [], `every acknowledged write to ${deckId} is there`)
            assert.ok(deck.body.manifest.revision >= (acknowledged.get(deckId)!.at(-1)?.revision ?? 0))
          }
        }
      } finally {
        await fresh.stop()
      }
      const total = [...acknowledged.values()].reduce((n, list) => n + list.length, 0)
      assert.ok(total >= 10, `some writes were acknowledged (${total})`)
    } finally {
      await watcher.stop()
    }
  })

  it('shows two pages on two instances each other\'s edits, presence and pointer, and follows across them', async () => {
    const url = await cluster.database('pages')
    const [a, b] = await Promise.all([serve(cwd, [], { env: env(url) }), serve(cwd, [], { env: env(url) })])
    const browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless'), headless: true })
    try {
      assert.equal((await call(a.url, 'deck.create', { name: 'Two rooms', id: 'rooms' })).status, 200)
      const added = await call(a.url, 'slide.new', { layout: 'title-body', id: 'second', baseRevision: 0 }, 'rooms')
      assert.equal(added.status, 200, JSON.stringify(added.body))
      const open = async (served: Served, slideId: string) => {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
        const page = await context.newPage()
        await page.goto(`${served.url}/d/rooms/${slideId}?token=${TOKEN}`)
        await page.locator(`.canvas[data-slide="${slideId}"]`).waitFor()
        await page.locator('.room.off').waitFor({ state: 'detached' })
        return { page, context, client: (await page.evaluate(() => sessionStorage.getItem('studio.client')))! }
      }
      const one = await open(a, 'title-1')
      const two = await open(b, 'title-1')
      // Presence: each page lists the other, though their rooms are on different instances.
      const otherOnOne = one.page.locator(`.roster .person[data-client="${two.client}"]`)
      await otherOnOne.waitFor()
      await two.page.locator(`.roster .person[data-client="${one.client}"]`).waitFor()
      // A pointer moved on B's page is drawn on A's.
      const box = (await two.page.locator('.canvas').boundingBox())!
      await two.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      await two.page.mouse.move(box.x + box.width / 2 + 10, box.y + box.height / 2 + 10)
      await one.page.locator(`.remote-pointer[data-client="${two.client}"]`).waitFor()
      // An edit made in B's page reaches A's page without a reload.
      await one.page.evaluate(() => ((window as any).notReloaded = true))
      const before = Number(await one.page.locator('.canvas').getAttribute('data-revision'))
      await two.page.getByRole('button', { name: 'New slide' }).click()
      await two.page.getByRole('group', { name: 'New slide' }).getByRole('button', { name: 'Title only' }).click()
      await one.page.locator(`.canvas[data-revision="${before + 1}"]`).waitFor()
      assert.equal(await one.page.evaluate(() => (window as any).notReloaded), true)
      // Following a person on the other instance: A's page goes where B's page goes.
      await two.page.goto(`${b.url}/d/rooms/title-1`)
      await two.page.locator('.canvas[data-slide="title-1"]').waitFor()
      await otherOnOne.getByRole('button', { name: 'Follow' }).click()
      await otherOnOne.getByRole('button', { name: 'Following' }).waitFor()
      await two.page.locator('.thumb[data-slide="second"] .thumb-button').click()
      await one.page.waitForURL(/\/second$/)
      // A page that leaves is gone from the other instance's roster.
      await two.context.close()
      await otherOnOne.waitFor({ state: 'detached' })
      await one.context.close()
    } finally {
      await browser.close()
      await Promise.all([a.stop(), b.stop()])
    }
  })

  it('sweeps the objects no change names, and none a write names, with sweeps racing refused and accepted writes', async () => {
    const url = await cluster.database('swept')
    const { S3Client, CreateBucketCommand, PutObjectCommand, HeadObjectCommand, ListObjectsV2Command } = await import('@aws-sdk/client-s3')
    const s3c = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
    // A bucket of this deployment's own: the sweep removes what its database does not name.
    const BUCKET = 'studio-swept'
    await s3c.send(new CreateBucketCommand({ Bucket: BUCKET }))
    const { createHash, randomBytes } = await import('node:crypto')
    const keyOf = (sha: string) => `objects/sha256/${sha.slice(0, 2)}/${sha}`
    const exists = (key: string) => s3c.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(() => true, () => false)
    // Sweeps every 20 ms of everything unnamed older than 1 ms: each write's objects are unnamed between its put and its commit.
    const a = await serve(cwd, [], { env: env(url, { STUDIO_S3_BUCKET: BUCKET, STUDIO_OBJECT_SWEEP_MS: '20', STUDIO_OBJECT_GRACE_MS: '1' }) })
    let b: Served | undefined
    try {
      // Bytes a killed write left: no change names them.
      const orphans = Array.from({ length: 3 }, () => randomBytes(64))
      for (const bytes of orphans) await s3c.send(new PutObjectCommand({ Bucket: BUCKET, Key: keyOf(createHash('sha256').update(bytes).digest('hex')), Body: bytes }))
      await s3c.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'elsewhere/kept.bin', Body: Buffer.from('not an object of the store') }))
      const created = await call(a.url, 'deck.create', { name: 'Swept', id: 'swept' })
      assert.equal(created.status, 200, JSON.stringify(created.body))
      let revision = created.body.revision as number
      let refused = 0
      for (let i = 0; i < 40; i++) {
        // Two writers read one revision: one is accepted, the other refused after putting its bytes.
        const [first, second] = await Promise.all([
          call(a.url, 'deck.rename', { name: `Swept ${i} a ${randomBytes(4).toString('hex')}`, baseRevision: revision }, 'swept'),
          call(a.url, 'slide.new', { layout: 'title-body', baseRevision: revision }, 'swept'),
        ])
        const won = [first, second].filter((r) => r.status === 200)
        assert.equal(won.length, 1, JSON.stringify([first.body, second.body]).slice(0, 400))
        refused += [first, second].filter((r) => r.status === 409).length
        revision = won[0].body.revision
      }
      assert.ok(refused > 0)
      for (const bytes of orphans) await until('an unnamed object swept', () => exists(keyOf(createHash('sha256').update(bytes).digest('hex'))), (there) => !there, 10_000, 100)
      assert.ok(await exists('elsewhere/kept.bin'), 'nothing outside objects/ is touched')
      // Every object any change names is in the store.
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      const named = (await client.query<{ sha: string }>('select distinct f.value as sha from studio_changes c cross join lateral jsonb_each_text(c.files) f where f.value is not null')).rows.map((r) => r.sha)
      const swept = Number((await client.query<{ n: string }>('select count(*) as n from studio_swept')).rows[0].n)
      await client.end()
      const stored = new Set<string>()
      let token: string | undefined
      do {
        const page = await s3c.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'objects/sha256/', ...(token ? { ContinuationToken: token } : {}) }))
        for (const o of page.Contents ?? []) stored.add(o.Key!.slice(-64))
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      const missing = named.filter((sha) => !stored.has(sha))
      assert.deepEqual(missing, [], `${missing.length} of ${named.length} named objects missing`)
      assert.ok(swept >= orphans.length, `swept ${swept}`)
      // A fresh instance rebuilds its replica from the whole log (reading every object) and serves the deck as A does.
      b = await serve(cwd, [], { env: env(url, { STUDIO_S3_BUCKET: BUCKET }) })
      const [onA, onB] = await Promise.all([call(a.url, 'deck.get', {}, 'swept'), call(b.url, 'deck.get', {}, 'swept')])
      assert.equal(onB.status, 200, JSON.stringify(onB.body).slice(0, 300))
      assert.deepEqual(onB.body, onA.body)
      // Another deployment (its own database) on this bucket sweeps nothing: to it, all of A's objects are unnamed.
      const other = await cluster.database('swept-other')
      const saved = { ...process.env }
      Object.assign(process.env, env(other, { STUDIO_S3_BUCKET: BUCKET }))
      const pool = new pg.Pool({ connectionString: other })
      try {
        const [{ ensureSchema }, { sweepObjects }] = await Promise.all([import('../../src/hosted/deck-store.js'), import('../../src/hosted/sweep.js')])
        await ensureSchema(pool)
        const outcome = await sweepObjects(pool, { graceMs: 1 })
        assert.equal(outcome.swept, 0)
        assert.match(outcome.foreign ?? '', /^[0-9a-f-]{36}$/, JSON.stringify(outcome))
      } finally {
        await pool.end()
        const { closeS3 } = await import('../../src/hosted/s3.js')
        closeS3()
        for (const key of Object.keys(env(other))) if (saved[key] === undefined) delete process.env[key]
          else process.env[key] = saved[key]
      }
      for (const sha of named) assert.ok(await exists(keyOf(sha)), `${sha} kept`)
    } finally {
      await Promise.all([a.stop(), b?.stop()])
      s3c.destroy()
    }
  })

  it('keeps one process\'s replica in STUDIO_CACHE_DIR, goes on from it after a restart, and leaves it alone to a command sharing the folder', async () => {
    const url = await cluster.database('cached')
    const cache = mkdtempSync(join(tmpdir(), 'studio-hosted-cache-'))
    let a = await serve(cwd, [], { env: env(url, { STUDIO_CACHE_DIR: cache }) })
    try {
      const created = await call(a.url, 'deck.create', { name: 'Cached', id: 'cached' })
      assert.equal(created.status, 200, JSON.stringify(created.body))
      // A command with the same settings, as an operator's shell would have them: one more instance. It
      // keeps its replica elsewhere while A holds the folder (a mark in A's replica stays).
      const mark = join(cache, 'replica', '.git', 'studio-test-mark')
      writeFileSync(mark, 'A')
      const renamed = await studio(cwd, ['deck', 'rename', 'Renamed by a command', '--deck', 'cached', '--rev', String(created.body.revision), '--json'], { env: env(url, { STUDIO_CACHE_DIR: cache }) })
      assert.equal(renamed.code, 0, renamed.stdout + renamed.stderr)
      assert.ok(existsSync(mark), "the command left the instance's replica alone")
      // The instance's replica is whole: it catches up, writes and reports ready.
      const next = await call(a.url, 'deck.rename', { name: 'Renamed on A', baseRevision: renamed.json.revision }, 'cached')
      assert.equal(next.status, 200, JSON.stringify(next.body).slice(0, 300))
      const diff = await call(a.url, 'version.diff', { from: 0 }, 'cached')
      assert.equal(diff.body.count, 2, JSON.stringify(diff.body).slice(0, 300))
      const ready = await fetch(`${a.url}/readyz`)
      assert.equal(ready.status, 200, JSON.stringify(await ready.json()))
      // Stopped and started again on the folder, A goes on from its replica (the mark is still there) and
      // replays only what was written meanwhile, by a command elsewhere.
      await a.stop()
      const meanwhile = await studio(cwd, ['deck', 'rename', 'Renamed while A was down', '--deck', 'cached', '--rev', String(next.body.revision), '--json'], { env: env(url) })
      assert.equal(meanwhile.code, 0, meanwhile.stdout + meanwhile.stderr)
      a = await serve(cwd, [], { env: env(url, { STUDIO_CACHE_DIR: cache }) })
      assert.ok(existsSync(mark), 'the replica was taken up again, not rebuilt')
      const again = await call(a.url, 'deck.info', {}, 'cached')
      assert.deepEqual([again.body.title, again.body.revision], ['Renamed while A was down', meanwhile.json.revision])
      assert.equal((await call(a.url, 'version.diff', { from: 0 }, 'cached')).body.count, 3)
      const after = await call(a.url, 'deck.rename', { name: 'After the restart', baseRevision: meanwhile.json.revision }, 'cached')
      assert.equal(after.status, 200)
      // A replica whose changes are not exactly 1 to N (here change 1 unmarked, as in a replica that took a
      // change before an earlier one and was stopped between them) is rebuilt, not taken up.
      await a.stop()
      const replica = join(cache, 'replica')
      execFileSync('git', ['filter-branch', '-f', '--msg-filter', 'sed "/^Studio-Seq: 1$/d"', 'HEAD'], { cwd: replica, env: { ...process.env, FILTER_BRANCH_SQUELCH_WARNING: '1' }, stdio: 'ignore' })
      a = await serve(cwd, [], { env: env(url, { STUDIO_CACHE_DIR: cache }) })
      assert.equal(existsSync(mark), false, 'a replica with a gap in its changes is rebuilt')
      assert.deepEqual((await call(a.url, 'deck.info', {}, 'cached')).body.revision, after.body.revision)
      assert.equal((await call(a.url, 'version.diff', { from: 0 }, 'cached')).body.count, 4)
      // Another deployment's instance on the same folder does not take that replica up: it rebuilds from its own log.
      await a.stop()
      writeFileSync(mark, 'A')
      const elsewhere = await cluster.database('cached-other')
      a = await serve(cwd, [], { env: env(elsewhere, { STUDIO_CACHE_DIR: cache }) })
      assert.equal(existsSync(mark), false, "another deployment's replica is thrown away")
      assert.equal((await call(a.url, 'deck.info', {}, 'cached')).status, 404)
    } finally {
      await a.stop()
      rmSync(cache, { recursive: true, force: true })
    }
  })

  it('runs with no workspace: --root is refused beside --store hosted, and a missing setting is named', async () => {
    const url = await cluster.database('settings')
    const noBucket = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--ttl', '20'], { cwd, env: { ...process.env, ...env(url), STUDIO_S3_BUCKET: '' } })
      let out = ''
      child.stdout.on('data', (d) => (out += d))
      child.stderr.on('data', (d) => (out += d))
      child.on('exit', (code) => resolve({ code, out }))
    })
    assert.notEqual(noBucket.code, 0)
    assert.match(noBucket.out, /STUDIO_S3_BUCKET/)
    const withRoot = await studio(cwd, ['deck', 'list', '--root', cwd, '--json'], { env: env(url) })
    assert.equal(withRoot.json?.code, 'invalid_input', withRoot.stdout + withRoot.stderr)
  })
})
