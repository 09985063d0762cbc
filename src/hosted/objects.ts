/**
 * File contents of the hosted deck store: immutable, content-addressed objects in the S3-compatible
 * store, named by the SHA-256 of their bytes (docs/storage.md "Layout v2"):
 * `objects/sha256/<first two hex digits>/<all 64>`. An object is written once and never changed, so a
 * write may put it again (a retry, two instances writing the same bytes) and a reader may cache it
 * forever. Every object read is hashed again before it is used: a store that hands back other bytes
 * (corruption, a hostile bucket) is refused, never written into a deck.
 */
import { createHash } from 'node:crypto'
import { fail } from '../core/errors.js'
import { bucket, s3Client } from './s3.js'

const NO_STORE = 'The hosted deck store needs an object store: set STUDIO_S3_BUCKET (and STUDIO_S3_ENDPOINT for an S3-compatible server); docs/hosting.md.'

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

export const objectKey = (sha: string): string => `objects/sha256/${sha.slice(0, 2)}/${sha}`

/**
 * Objects known to be in the store (put or read by this process in the last hour): not put again.
 * Forgotten after an hour, well inside the sweep's grace (sweep.ts: a day), and past 100,000 (a put again
 * is harmless). A write that skipped a put for an object the sweep has since removed learns it from the
 * sweep's record at commit (`refuseSwept`) and puts it again.
 */
const known = new Map<string, number>()
const KNOWN_FOR_MS = 60 * 60 * 1000
const remember = (sha: string) => {
  if (known.size >= 100_000) known.clear()
  known.set(sha, Date.now())
}
const isKnown = (sha: string) => {
  const at = known.get(sha)
  return at !== undefined && Date.now() - at < KNOWN_FOR_MS
}

/** How many requests to the store run at once. */
const PARALLEL = 8

async function inBatches<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await fn(items[next++])
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker))
}

/** Puts every object not known to be stored (each under its digest; the same bytes twice are one object). */
export async function putObjects(objects: Map<string, Buffer>): Promise<number> {
  const missing = [...objects].filter(([sha]) => !isKnown(sha))
  if (!missing.length) return 0
  const s3 = await s3Client(NO_STORE)
  const { PutObjectCommand } = await import('@aws-sdk/client-s3')
  await inBatches(missing, async ([sha, body]) => {
    await s3.send(new PutObjectCommand({ Bucket: bucket()!, Key: objectKey(sha), Body: body, ContentLength: body.length, ContentType: 'application/octet-stream' }))
    remember(sha)
  })
  return missing.length
}

/** Reads objects by digest, each checked against its digest. */
export async function getObjects(shas: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>()
  const wanted = [...new Set(shas)]
  if (!wanted.length) return out
  const s3 = await s3Client(NO_STORE)
  const { GetObjectCommand } = await import('@aws-sdk/client-s3')
  await inBatches(wanted, async (sha) => {
    if (!/^[0-9a-f]{64}$/.test(sha)) fail('internal', `The hosted store's change log names "${sha.slice(0, 80)}", which is not an object digest.`)
    const answer = await s3.send(new GetObjectCommand({ Bucket: bucket()!, Key: objectKey(sha) }))
    const bytes = Buffer.from(await answer.Body!.transformToByteArray())
    if (sha256(bytes) !== sha) fail('internal', `Object ${sha} in the object store does not hold the bytes of its digest (${bytes.length} bytes read); nothing was written from it.`)
    remember(sha)
    out.set(sha, bytes)
  })
  return out
}

/** Whether the store holds an object (verify and migration). */
export async function hasObject(sha: string): Promise<boolean> {
  const s3 = await s3Client(NO_STORE)
  const { HeadObjectCommand } = await import('@aws-sdk/client-s3')
  return s3.send(new HeadObjectCommand({ Bucket: bucket()!, Key: objectKey(sha) })).then(
    () => true,
    () => false,
  )
}

/** The sweep (sweep.ts) removed objects a change was about to name since they were put: put them again, then commit. */
export class ObjectsSwept extends Error {
  constructor(readonly shas: string[]) {
    super(`${shas.length} objects this change names were swept from the store meanwhile`)
  }
}

/**
 * Inside a write's transaction, once it holds the version row (the sweep deletes holding it too): refuses
 * with ObjectsSwept when the sweep removed any object of `shas`, so no change ever names a missing object.
 */
export async function refuseSwept(client: { query: (text: string, values: unknown[]) => Promise<{ rows: { sha: string }[] }> }, shas: Iterable<string>): Promise<void> {
  const list = [...new Set(shas)]
  if (!list.length) return
  const { rows } = await client.query('select sha from studio_swept where sha = any($1::text[])', [list])
  if (rows.length) throw new ObjectsSwept(rows.map((r) => r.sha))
}

/**
 * Runs a write (its puts, then its transaction with `refuseSwept`) and, where the sweep removed (or is about
 * to remove) one of its objects meanwhile, clears their record, puts them again, and runs it once more
 * (ten tries at most: with the default day of grace a second try always lands; the tests sweep every 20 ms).
 */
export async function withSweptRetry<T>(pool: { query: (text: string, values: unknown[]) => Promise<unknown> }, objects: Map<string, Buffer>, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (error) {
      if (!(error instanceof ObjectsSwept)) throw error
      if (attempt >= 10) fail('storage', `The store's sweep removed objects of this change ${attempt} times running; nothing was written. Try again.`)
      const again = new Map<string, Buffer>()
      for (const sha of error.shas) {
        known.delete(sha)
        const bytes = objects.get(sha)
        if (bytes) again.set(sha, bytes)
      }
      // The record first (it waits for a sweep deleting these now), then the bytes: a sweep that finds no
      // record keeps the object, and one that deleted it did so before this put.
      await pool.query('delete from studio_swept where sha = any($1::text[])', [[...again.keys()]])
      await putObjects(again)
    }
  }
}
