/**
 * People (issue 26): display names and avatars. Names on a checkout through one served studio (HTTP,
 * MCP) and the CLI: every rule answers its fixed sentence, NFC, uniqueness by UTS #39 skeleton among
 * the checkout's principals. With accounts (a real identity database; principals, a deck's access
 * record and a grant made directly in it) through the engine: uniqueness between two principals who
 * share a deck and not between strangers, each avatar variant, a picture re-encoded (metadata gone, no
 * original anywhere), a 600 KB picture refused, and admin.avatar.sweep dry-run and real.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import sharp from 'sharp'
import { request } from 'undici'
import { ACTIONS } from '../../src/actions/index.js'
import { dispatch } from '../../src/core/engine.js'
import type { StudioError } from '../../src/core/errors.js'
import { markOf, markPng } from '../../src/identity/avatar.js'
import { closeIdentities, identityOf } from '../../src/identity/db.js'
import { NAME_SENTENCES, type NameRule } from '../../src/identity/names.js'
import { Workspace } from '../../src/store/workspace.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'

cliInOneProcess()

const DECK = 'quarterly-review'

/** Two names per rule: each refusal is the rule's sentence, whatever the name. */
const REFUSED: [string, NameRule][] = [
  ['', 'length'],
  ['x'.repeat(41), 'length'],
  ['!!!', 'letter'],
  ['— · —', 'letter'],
  ['Ana\u0007Lima', 'control'],
  ['Ana\u200BLima', 'control'],
  ['Ana\u202Eamil', 'bidi'],
  ['\u2066Ana', 'bidi'],
  ['Admin', 'reserved'],
  ['\u0405ystem', 'reserved'], // Cyrillic Ѕ
  ['agent:smith', 'reserved'],
  ['The Owner', 'reserved'],
  ['\u0410na Lima', 'confusable'], // Cyrillic А among Latin letters
  ['P\u0430ypal', 'confusable'],
]

describe('display names on a checkout, over HTTP, MCP and the CLI', () => {
  let ws: TestWorkspace
  let server: Served
  let mcp: Client
  before(async () => {
    ws = await newUserWorkspace()
    server = await serve(ws.dir)
    mcp = new Client({ name: 'people-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp?deck=${DECK}`), { requestInit: { headers: { 'x-studio-author': 'Bob' } } }))
  })
  after(async () => {
    await mcp?.close()
    await server?.stop()
    ws?.cleanup()
  })

  const post = async (id: string, input: unknown, author = 'Ana') => {
    const r = await request(`${server.url}/api/actions/${id}?deck=${DECK}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-studio-author': author }, body: JSON.stringify(input) })
    return { status: r.statusCode, json: (await r.body.json()) as any }
  }
  const tool = async (name: string, args: Record<string, unknown>) => (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any }

  it('stores a name NFC-normalized with its trimmed spaces, and answers the mark', async () => {
    const r = await post('account.setName', { name: '  Jose\u0301   Lima ' })
    assert.equal(r.status, 200, JSON.stringify(r.json))
    assert.equal(r.json.label, 'Jos\u00e9 Lima')
    assert.match(r.json.mark, /^<svg [^>]*aria-label="Jos\u00e9 Lima"/)
    assert.match(r.json.mark, />JL<\/text>/)
    const stored = JSON.parse(readFileSync(join(ws.dir, '.studio', 'principals.json'), 'utf8')).principals.Ana
    assert.equal(stored.name, 'Jos\u00e9 Lima')
  })

  it('refuses each rule with its fixed sentence, the same whatever the name, over HTTP and MCP', async () => {
    for (const [name, rule] of REFUSED) {
      const http = await post('account.setName', { name }, 'Carla')
      assert.deepEqual([http.status, http.json.code, http.json.details?.reason, http.json.message], [400, 'name_refused', rule, NAME_SENTENCES[rule]], `${JSON.stringify(name)}: ${JSON.stringify(http.json)}`)
      const viaMcp = await tool('deck_set_my_name', { name })
      assert.equal(viaMcp.isError, true, JSON.stringify(name))
      assert.deepEqual([viaMcp.structuredContent.code, viaMcp.structuredContent.message], ['name_refused', NAME_SENTENCES[rule]])
    }
    const cli = await studio(ws.dir, ['account', 'name', '\u0410dmin', '--json'])
    assert.deepEqual([cli.code, cli.json.code, cli.json.message], [2, 'name_refused', NAME_SENTENCES.reserved])
    // Nothing refused was stored.
    assert.equal(JSON.parse(readFileSync(join(ws.dir, '.studio', 'principals.json'), 'utf8')).principals.Carla, undefined)
  })

  it("keeps names unique by skeleton among the checkout's principals (each owns every deck)", async () => {
    assert.equal((await post('account.setName', { name: 'Alice Lima' }, 'Alice')).status, 200)
    // Capital I for l, and the same name again, from another principal: one skeleton.
    for (const name of ['AIice Lima', 'Alice Lima']) {
      const taken = await tool('deck_set_my_name', { name })
      assert.deepEqual([taken.isError, taken.structuredContent.details.reason, taken.structuredContent.message], [true, 'taken', NAME_SENTENCES.taken])
    }
    // Setting one's own name again is no clash; a different name is.
    assert.equal((await post('account.setName', { name: 'Alice Lima' }, 'Alice')).status, 200)
    const bob = await tool('deck_set_my_name', { name: 'Bob Lima' })
    assert.equal(bob.isError, undefined, JSON.stringify(bob.structuredContent))
  })

  it('draws initials, a glyph and a dither plate, the same for the same salt; refuses a picture without accounts', async () => {
    const initials = await post('account.setAvatar', { variant: 'initials' })
    assert.deepEqual(initials.json.avatar, { variant: 'initials', initials: 'JL' })
    const own = await post('account.setAvatar', { variant: 'initials', initials: 'ab' })
    assert.match(own.json.mark, />AB<\/text>/)
    for (const variant of ['glyph', 'dither'] as const) {
      const marks = new Set<string>()
      for (const salt of [0, 1, 2, 3, 4, 5]) {
        const a = await post('account.setAvatar', { variant, salt })
        const b = await post('account.setAvatar', { variant, salt })
        assert.deepEqual(a.json.avatar, { variant, salt })
        assert.equal(a.json.mark, b.json.mark, 'the same principal and salt draw the same mark')
        marks.add(a.json.mark)
      }
      assert.ok(marks.size > 1, `another salt picks another ${variant}`)
    }
    const picture = `data:image/png;base64,${(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer()).toString('base64')}`
    const refused = await post('account.setAvatar', { variant: 'picture', picture })
    assert.deepEqual([refused.status, refused.json.code], [400, 'refused'])
    assert.match(refused.json.message, /signed-in people/)
    assert.equal(existsSync(join(ws.dir, '.studio', 'u')), false)
  })

  it('refuses admin.avatar.sweep without an identity database', async () => {
    const r = await post('admin.avatar.sweep', { dryRun: true })
    assert.deepEqual([r.status, r.json.code], [400, 'refused'])
  })
})

describe('names and avatars with accounts (a real identity database, through the engine)', () => {
  let test: TestWorkspace
  let ws: Workspace
  const setName = ACTIONS.find((a) => a.id === 'account.setName')!
  const setAvatar = ACTIONS.find((a) => a.id === 'account.setAvatar')!
  const sweep = ACTIONS.find((a) => a.id === 'admin.avatar.sweep')!
  const as = (principalId: string, kind: 'person' | 'anonymous' = 'person') => ({ ws, transport: 'H' as const, author: principalId, caller: { principalId, kind } })

  before(async () => {
    test = await newUserWorkspace()
    ws = new Workspace(test.dir, test.dir)
    const identity = (await identityOf(ws, { create: true }))!
    const now = new Date().toISOString()
    const person = (id: string, email: string | null, trust: 'verified' | 'unverified', kind: 'person' | 'anonymous' = 'person') => ({ id, kind, email, trust, is_admin: 0, created_at: now, name: null, name_skeleton: null, avatar: null, last_seen_at: null })
    await identity.db.insertInto('principals').values([person('p-ana', 'ana@example.com', 'verified'), person('p-bob', 'bob@example.com', 'verified'), person('p-cy', 'cy@example.com', 'verified'), person('p-anon', null, 'unverified', 'anonymous')]).execute()
    // Ana owns the deck and Bob holds a grant on it; Cy shares nothing with either.
    await identity.db.insertInto('deck_access').values({ deck_id: DECK, owner_id: 'p-ana', revision: 0, general_mode: 'restricted', general_role: 'viewer', general_link_id: null, settings: '{}', pending_owner: null, updated_at: now, updated_by: null }).execute()
    await identity.db.insertInto('grants').values({ id: 'g-1', deck_id: DECK, principal_id: 'p-bob', email: null, role: 'commenter', expires_at: null, created_at: now, created_by: 'p-ana' }).execute()
  })
  after(async () => {
    await closeIdentities()
    test?.cleanup()
  })

  it('refuses a name whose skeleton another principal sharing a deck has, and not a stranger', async () => {
    const ana = await dispatch(setName, { name: 'Alice Lima' }, as('p-ana'))
    assert.equal((ana.result as any).label, 'Alice Lima')
    await assert.rejects(dispatch(setName, { name: 'AIice Lima' }, as('p-bob')), (e: StudioError) => e.code === 'name_refused' && e.message === NAME_SENTENCES.taken && (e.extra.details as any).reason === 'taken')
    // Cy shares no deck with Ana: the same skeleton is hers to take.
    assert.equal(((await dispatch(setName, { name: 'AIice Lima' }, as('p-cy'))).result as any).label, 'AIice Lima')
    const rows = await (await identityOf(ws))!.db.selectFrom('principals').select(['id', 'name', 'name_skeleton']).orderBy('id').execute()
    assert.deepEqual(rows.filter((r) => r.name).map((r) => [r.id, r.name]), [['p-ana', 'Alice Lima'], ['p-cy', 'AIice Lima']])
    assert.equal(rows.find((r) => r.id === 'p-ana')!.name_skeleton, rows.find((r) => r.id === 'p-cy')!.name_skeleton)
  })

  it('re-encodes a picture square and small with its metadata gone, and keeps no original', async () => {
    const original = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#c0392b' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'exif-marker-7f3a', ImageDescription: 'exif-marker-7f3a' } } })
      .toBuffer()
    assert.ok(original.includes('exif-marker-7f3a'))
    const done = (await dispatch(setAvatar, { variant: 'picture', picture: `data:image/jpeg;base64,${original.toString('base64')}` }, as('p-ana'))).result as any
    assert.equal(done.avatar.variant, 'picture')
    assert.match(done.avatar.picture, /^[0-9a-f]{64}$/)
    const dir = join(test.dir, '.studio', 'u')
    assert.deepEqual(readdirSync(dir), [done.avatar.picture])
    const stored = readFileSync(join(dir, done.avatar.picture))
    const meta = await sharp(stored).metadata()
    assert.deepEqual([meta.format, meta.width, meta.height, meta.exif, meta.icc], ['webp', 256, 256, undefined, undefined])
    // The original's bytes (its metadata's marker) are in no file of the workspace, git's objects included.
    assert.deepEqual(filesContaining(test.dir, 'exif-marker-7f3a'), [])
    assert.match(done.mark, /<image width="64" height="64" href="data:image\/webp;base64,/)
    const png = await markPng(done.mark)
    assert.deepEqual([(await sharp(png).metadata()).format, (await sharp(png).metadata()).width], ['png', 256])
  })

  it('refuses a picture of 600 KB, and a picture for an anonymous browser', async () => {
    const noisy = await sharp(Buffer.from(Array.from({ length: 480 * 480 * 3 }, (_, i) => (i * 2654435761) >>> 24)), { raw: { width: 480, height: 480, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer()
    assert.ok(noisy.length > 600 * 1024 && noisy.length < 800 * 1024, `${noisy.length}`)
    const before = readdirSync(join(test.dir, '.studio', 'u'))
    await assert.rejects(dispatch(setAvatar, { variant: 'picture', picture: `data:image/png;base64,${noisy.toString('base64')}` }, as('p-bob')), (e: StudioError) => e.code === 'payload_too_large' && /under 512 KB/.test(e.message))
    const small = `data:image/png;base64,${(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer()).toString('base64')}`
    await assert.rejects(dispatch(setAvatar, { variant: 'picture', picture: small }, as('p-anon', 'anonymous')), (e: StudioError) => e.code === 'forbidden' && /signed-in people/.test(e.message))
    assert.deepEqual(readdirSync(join(test.dir, '.studio', 'u')), before)
  })

  it('sweeps picture objects no profile names once they are a day old: dry-run lists, the real sweep removes', async () => {
    const dir = join(test.dir, '.studio', 'u')
    mkdirSync(dir, { recursive: true })
    const [named] = readdirSync(dir)
    const old = 'a'.repeat(64)
    const young = 'b'.repeat(64)
    writeFileSync(join(dir, old), 'orphan')
    writeFileSync(join(dir, young), 'orphan')
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000)
    for (const key of [old, named]) utimesSync(join(dir, key), twoDaysAgo, twoDaysAgo)
    const admin = { ws, transport: 'C' as const }
    const dry = (await dispatch(sweep, { dryRun: true }, admin)).result as any
    assert.deepEqual([dry.orphans, dry.removed], [[old], []])
    assert.ok(existsSync(join(dir, old)))
    const real = (await dispatch(sweep, {}, admin)).result as any
    assert.deepEqual([real.orphans, real.removed], [[old], [old]])
    assert.deepEqual(readdirSync(dir).sort(), [named, young].sort())
  })

  it('draws the mark of each variant as SVG, and a PNG of it', async () => {
    for (const variant of ['initials', 'glyph', 'dither'] as const) {
      const svg = markOf({ key: 'p-ana', label: 'Alice Lima', avatar: { variant, salt: 3 } })
      assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 64 64"/)
      const png = await markPng(svg, 64)
      assert.equal((await sharp(png).metadata()).width, 64)
    }
  })
})

/** Files under `root` whose bytes contain `needle` (git's loose objects are compressed: their text is searched as stored, packs aside). */
function filesContaining(root: string, needle: string): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      const info = statSync(path)
      if (info.isDirectory()) walk(path)
      else if (readFileSync(path).includes(needle)) out.push(path)
    }
  }
  walk(root)
  return out
}
