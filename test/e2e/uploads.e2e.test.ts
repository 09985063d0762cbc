/**
 * Presigned uploads (issue 27; src/hosted/uploads.ts) against an S3-compatible test server on loopback
 * (s3rver: it serves the request shapes and enforces no policy or signature, so studio's own checks are
 * what is tested): POST /api/uploads hands out a presigned POST under the caller's prefix; asset.add with
 * `upload` takes the picture from the store and deletes the upload once the asset is committed; another
 * prefix is refused, an object over the cap is refused before it is read, bytes that are not a picture are
 * refused with nothing written; the sweep deletes uploads older than its age and nothing else; the
 * `uploads` kill switch stops new uploads; without a bucket the route says what to set.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import sharp from 'sharp'
import { request } from 'undici'
import { newUserWorkspace } from '../helpers/fixture.js'
import { serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'
import { until } from '../helpers/until.js'


const DECK = 'quarterly-review'
const BUCKET = 'studio-uploads'

describe('presigned uploads to an S3-compatible store', () => {
  let store: S3rver
  let storeDir: string
  let endpoint: string
  let s3: S3Client
  let ws: TestWorkspace
  let server: Served
  const env = () => ({ STUDIO_S3_BUCKET: BUCKET, STUDIO_S3_ENDPOINT: endpoint, STUDIO_S3_FORCE_PATH_STYLE: '1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' })

  before(async () => {
    storeDir = mkdtempSync(join(tmpdir(), 'studio-s3-'))
    store = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: storeDir, configureBuckets: [{ name: BUCKET }] })
    const { port } = await store.run()
    endpoint = `http://127.0.0.1:${port}`
    s3 = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
    ws = await newUserWorkspace()
    server = await serve(ws.dir, [], { env: env() })
  })
  after(async () => {
    await server?.stop()
    s3?.destroy()
    await store?.close()
    ws?.cleanup()
    rmSync(storeDir, { recursive: true, force: true })
  })

  const call = async (id: string, input: object) => {
    const res = await request(`${server.url}/api/actions/${id}?deck=${DECK}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) })
    return { status: res.statusCode, body: JSON.parse(await res.body.text()) }
  }
  const presign = async () => {
    const res = await request(`${server.url}/api/uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    return { status: res.statusCode, body: JSON.parse(await res.body.text()) }
  }
  /** Sends bytes as a browser would: a form POST to the store with the presigned fields. */
  const upload = async (post: { url: string; fields: Record<string, string> }, bytes: Buffer) => {
    const form = new FormData()
    for (const [name, value] of Object.entries(post.fields)) form.append(name, value)
    form.append('file', new Blob([new Uint8Array(bytes)]), 'picture.png')
    const res = await fetch(post.url, { method: 'POST', body: form })
    await res.arrayBuffer()
    return res.status
  }
  const exists = async (key: string) => s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(() => true, () => false)
  const revision = async () => (await call('deck.info', {})).body.revision as number

  it('takes a picture from the caller\'s own upload into the deck, then deletes the upload', async () => {
    const presigned = await presign()
    assert.equal(presigned.status, 200, JSON.stringify(presigned.body))
    assert.match(presigned.body.key, /^uploads\/checkout\/[0-9a-f-]{36}$/)
    assert.equal(presigned.body.maxBytes, 25 * 1024 * 1024)
    const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366aa' } }).png().toBuffer()
    assert.equal(await upload(presigned.body, png), 204)
    assert.ok(await exists(presigned.body.key))
    const added = await call('asset.add', { upload: presigned.body.key, id: 'harbour', role: 'picture', alt: 'The harbour in blue', baseRevision: await revision() })
    assert.equal(added.status, 200, JSON.stringify(added.body))
    assert.equal(added.body.asset.id, 'harbour')
    assert.equal(added.body.asset.width, 1200)
    assert.match((await ws.git('log', '-1', '--format=%s')).trim(), /^asset\.add /)
    assert.equal(await exists(presigned.body.key), false, 'the upload is deleted once the asset is committed')
    // Used once: the same key again is gone.
    const again = await call('asset.add', { upload: presigned.body.key, id: 'harbour-2', role: 'picture', alt: 'Again', baseRevision: await revision() })
    assert.equal(again.status, 404)
  })

  it('takes a background picture and a background material\'s frame from uploads, deleting each once committed', async () => {
    const info = await call('deck.info', {})
    const slideId = info.body.sections[0].slides[0].id as string
    const presigned = await presign()
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#224466' } }).png().toBuffer()
    assert.equal(await upload(presigned.body, png), 204)
    const placed = await call('slide.setBackgroundPicture', { slideIds: [slideId], upload: presigned.body.key, alt: 'Deep blue', baseRevision: await revision() })
    assert.equal(placed.status, 200, JSON.stringify(placed.body))
    assert.equal(placed.body.slides[0].slideId, slideId)
    assert.equal(await exists(presigned.body.key), false, 'the upload is deleted once the picture is committed')
    // A material's frame, drawn by the client at 3200 by 1800 and sent by upload instead of in the body.
    const frame = await presign()
    const drawn = await sharp({ create: { width: 3200, height: 1800, channels: 3, background: '#553311' } }).png().toBuffer()
    assert.equal(await upload(frame.body, drawn), 204)
    const material = { slideIds: [slideId], materialId: 'paper:mesh-gradient', preset: 'dusk' }
    const stale = await call('slide.setBackgroundMaterial', { ...material, frame: { frameKey: 'f0', upload: frame.body.key }, baseRevision: await revision() })
    assert.equal(stale.status, 409, JSON.stringify(stale.body))
    const keyed = await call('slide.setBackgroundMaterial', { ...material, frame: { frameKey: stale.body.details.frameKey, upload: frame.body.key }, baseRevision: await revision() })
    assert.equal(keyed.status, 200, JSON.stringify(keyed.body).slice(0, 300))
    assert.equal(await exists(frame.body.key), false, 'the frame\'s upload is deleted once committed')
    // Bytes and an upload at once are one too many.
    const both = await call('slide.setBackgroundMaterial', { ...material, frame: { frameKey: stale.body.details.frameKey, upload: frame.body.key, bytes: drawn.toString('base64') }, baseRevision: await revision() })
    assert.deepEqual([both.status, both.body.pointer], [400, '/frame/upload'])
  })

  it('refuses another uploader\'s key, an object over the cap, and bytes that are not a picture', async () => {
    const before = await revision()
    const foreign = await call('asset.add', { upload: 'uploads/p_someoneelse/0b7e9c8e-1d2a-4b3c-9d4e-5f6a7b8c9d0e', role: 'picture', alt: 'Not mine', baseRevision: before })
    assert.equal(foreign.status, 403, JSON.stringify(foreign.body))
    assert.equal(foreign.body.pointer ?? foreign.body.details?.pointer ?? '/upload', '/upload')
    const traversal = await call('asset.add', { upload: 'uploads/checkout/../p_x/0b7e9c8e-1d2a-4b3c-9d4e-5f6a7b8c9d0e', role: 'picture', alt: 'Sneaky', baseRevision: before })
    assert.equal(traversal.status, 400)
    // The store does not enforce the policy's size range: put an object past the cap directly.
    const big = (await presign()).body.key as string
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: big, Body: Buffer.alloc(25 * 1024 * 1024 + 1) }))
    const tooBig = await call('asset.add', { upload: big, role: 'picture', alt: 'Too big', baseRevision: before })
    assert.equal(tooBig.status, 413, JSON.stringify(tooBig.body))
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: big }))
    // Text named like a picture: the codec reads the bytes and refuses; nothing is written, the upload stays.
    const text = await presign()
    assert.equal(await upload(text.body, Buffer.from('this is not a picture at all')), 204)
    const notPicture = await call('asset.add', { upload: text.body.key, role: 'picture', alt: 'Text', baseRevision: before })
    assert.ok(notPicture.status >= 400 && notPicture.status < 500, JSON.stringify(notPicture.body))
    assert.equal(await revision(), before)
    assert.ok(await exists(text.body.key))
  })

  it('lands a deck bundle sent by presigned upload (over the request body cap), then deletes the upload', async () => {
    const zip = join(ws.dir, '.studio', 'bundle.zip')
    const packed = await studio(ws.dir, ['deck', 'pack', DECK, '--out', zip, '--json'])
    assert.equal(packed.code, 0, packed.stdout + packed.stderr)
    const presigned = (await presign()).body
    assert.equal(await upload(presigned, readFileSync(zip)), 204)
    const res = await request(`${server.url}/api/decks/bundle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ upload: presigned.key, as: 'from-the-store' }) })
    const body = JSON.parse(await res.body.text())
    assert.equal(res.statusCode, 200, JSON.stringify(body))
    assert.equal((await call('deck.list', {})).body.decks.some((d: { id: string }) => d.id === 'from-the-store'), true)
    assert.equal(await exists(presigned.key), false)
  })

  it('sweeps uploads older than their age, and nothing outside uploads/', async () => {
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'kept/other.bin', Body: Buffer.from('keep') }))
    const old = (await presign()).body.key as string
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: old, Body: Buffer.from('old') }))
    const saved = { ...process.env }
    Object.assign(process.env, env())
    try {
      const { sweepUploads } = await import('../../src/hosted/uploads.js')
      // Nothing is a day old yet.
      assert.equal(await sweepUploads(), 0)
      assert.ok(await exists(old))
      // A day from now, every upload is.
      assert.ok((await sweepUploads(undefined, Date.now() + 25 * 3600 * 1000)) >= 1)
    } finally {
      for (const key of Object.keys(env())) if (saved[key] === undefined) delete process.env[key]
        else process.env[key] = saved[key]
    }
    assert.equal(await exists(old), false)
    assert.ok(await exists('kept/other.bin'))
  })

  it('is swept by studio serve itself, at its interval: an upload past its age goes, nothing else does', async () => {
    const key = (await presign()).body.key as string
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: Buffer.from('left behind') }))
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'kept/swept-around.bin', Body: Buffer.from('keep') }))
    const sweeping = await serve(ws.dir, [], { env: { ...env(), STUDIO_UPLOAD_SWEEP_MS: '200', STUDIO_UPLOAD_MAX_AGE_MS: '1' } })
    try {
      await until('the served studio sweeping the upload', () => exists(key), (there) => !there, 15_000, 100)
      assert.ok(await exists('kept/swept-around.bin'))
    } finally {
      await sweeping.stop()
    }
  })

  it('stops new uploads with the uploads kill switch, and says what to set without a bucket', async () => {
    assert.equal((await studio(ws.dir, ['admin', 'flag', 'uploads', '--on', 'true', '--json'])).code, 0)
    try {
      const stopped = await presign()
      assert.equal(stopped.status, 503, JSON.stringify(stopped.body))
      assert.equal(stopped.body.details.flag, 'uploads')
    } finally {
      assert.equal((await studio(ws.dir, ['admin', 'flag', 'uploads', '--on', 'false', '--json'])).code, 0)
    }
    const plain = await serve(ws.dir, [])
    try {
      const res = await request(`${plain.url}/api/uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      const body = JSON.parse(await res.body.text())
      assert.equal(res.statusCode, 501)
      assert.match(body.message, /STUDIO_S3_BUCKET/)
    } finally {
      await plain.stop()
    }
  })
})
