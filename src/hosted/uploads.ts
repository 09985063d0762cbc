/**
 * Presigned uploads to the private object store (issue 27; docs/hosting.md "Uploads"): a picture too big
 * for a request body goes straight from the client to the store, under `uploads/<uploader>/<uuid>`, with
 * a size range in the signed policy; `asset.add` (and the actions that run it) then names the key in
 * `upload`. Studio checks what the store may not enforce (an S3-compatible test server enforces no
 * policy): the key is the caller's own prefix, the object's size is within the cap, and the codec checks
 * the bytes are a picture before anything is written; the upload is deleted once the asset is committed.
 * `studio serve` sweeps uploads older than a day, every hour (`startUploadSweeps`).
 *
 * Configured by the environment an operator expects: STUDIO_S3_BUCKET (required), STUDIO_S3_ENDPOINT (an
 * S3-compatible server; AWS S3 when unset), STUDIO_S3_FORCE_PATH_STYLE=1, and the AWS SDK's own
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION. The SDK loads only where a bucket is set.
 */
import { randomUUID } from 'node:crypto'
import { bucket, s3Client } from './s3.js'
import { msFrom, periodically } from './periodic.js'
import { fail } from '../core/errors.js'
import type { Caller } from '../identity/caller.js'

/** Largest upload, as for a picture fetched from a URL (asset.add). */
export const UPLOAD_LIMIT = 25 * 1024 * 1024
/** How long a presigned upload may be used. */
export const UPLOAD_TTL_S = 15 * 60
/** Uploads older than this are swept (STUDIO_UPLOAD_MAX_AGE_MS changes it). */
export const UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000
/** How often `studio serve` sweeps (STUDIO_UPLOAD_SWEEP_MS changes it); the first sweep is a minute after start at most. */
export const UPLOAD_SWEEP_MS = 60 * 60 * 1000

const NO_STORE = 'Presigned uploads need an object store: set STUDIO_S3_BUCKET (and STUDIO_S3_ENDPOINT for an S3-compatible server); docs/hosting.md.'

const client = (pointer?: string) => s3Client(NO_STORE, pointer)

/** The folder a caller's uploads go to: their principal id, the deployment, or the checkout's person. */
export function uploaderOf(caller: Caller | undefined): string {
  if (!caller) return 'checkout'
  if (caller.root) return 'deployment'
  if (caller.principalId) return caller.principalId
  fail('forbidden', 'Uploads need a principal: sign in, or use an API key.')
}

const prefixOf = (uploader: string) => `uploads/${uploader}/`
const KEY_RE = /^uploads\/([A-Za-z0-9_.:-]{1,80})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/

/** A presigned POST for one upload of at most `UPLOAD_LIMIT` bytes under the uploader's prefix. */
export async function presignUpload(uploader: string): Promise<{ url: string; fields: Record<string, string>; key: string; maxBytes: number; expiresAt: string }> {
  const s3 = await client()
  const { createPresignedPost } = await import('@aws-sdk/s3-presigned-post')
  const key = `${prefixOf(uploader)}${randomUUID()}`
  const post = await createPresignedPost(s3, {
    Bucket: bucket()!,
    Key: key,
    Conditions: [['content-length-range', 1, UPLOAD_LIMIT], ['eq', '$key', key]],
    Expires: UPLOAD_TTL_S,
  })
  return { url: post.url, fields: post.fields, key, maxBytes: UPLOAD_LIMIT, expiresAt: new Date(Date.now() + UPLOAD_TTL_S * 1000).toISOString() }
}

/**
 * The bytes of an upload the caller made: refused unless the key is of the shape presignUpload makes and
 * under the caller's own prefix (403, the same answer whether or not the object exists), 404 when there is
 * no such upload, 413 when it is over `limit` — checked before a byte is read, and again while reading.
 */
export async function takeUpload(key: string, uploader: string, limit: number, pointer = '/upload'): Promise<Buffer> {
  const s3 = await client(pointer)
  const shape = KEY_RE.exec(key)
  if (!shape) fail('invalid_input', 'An upload key reads uploads/<uploader>/<uuid>, as POST /api/uploads answered it.', { pointer })
  if (shape[1] !== uploader) fail('forbidden', 'That upload is not yours: name a key from your own POST /api/uploads.', { pointer })
  const { GetObjectCommand, HeadObjectCommand } = await import('@aws-sdk/client-s3')
  const missing = (error: unknown) => {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
    if (e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404) fail('not_found', 'No such upload (it was used, swept after a day, or never finished).', { pointer })
    throw error
  }
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket()!, Key: key })).catch(missing)
  const size = Number(head.ContentLength ?? 0)
  if (size > limit) fail('payload_too_large', `The upload is ${size} bytes; the cap is ${limit}.`, { pointer })
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket()!, Key: key })).catch(missing)
  const chunks: Buffer[] = []
  let read = 0
  for await (const chunk of object.Body as AsyncIterable<Uint8Array>) {
    read += chunk.length
    if (read > limit) fail('payload_too_large', `The upload is over the cap of ${limit} bytes.`, { pointer })
    chunks.push(Buffer.from(chunk))
  }
  return Buffer.concat(chunks)
}

/** Deletes an upload (once its asset is committed); a failure is left to the sweep. */
export async function deleteUpload(key: string): Promise<void> {
  const s3 = await client()
  const { DeleteObjectCommand } = await import('@aws-sdk/client-s3')
  await s3.send(new DeleteObjectCommand({ Bucket: bucket()!, Key: key })).catch(() => undefined)
}

/** Deletes every upload older than `maxAgeMs` (a day); answers how many. */
export async function sweepUploads(maxAgeMs = UPLOAD_MAX_AGE_MS, now = Date.now()): Promise<number> {
  const s3 = await client()
  const { DeleteObjectCommand, ListObjectsV2Command } = await import('@aws-sdk/client-s3')
  let swept = 0
  let token: string | undefined
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket()!, Prefix: 'uploads/', ...(token ? { ContinuationToken: token } : {}) }))
    for (const object of page.Contents ?? []) {
      if (!object.Key || !object.LastModified || now - object.LastModified.getTime() < maxAgeMs) continue
      await s3.send(new DeleteObjectCommand({ Bucket: bucket()!, Key: object.Key }))
      swept++
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined
  } while (token)
  return swept
}

/**
 * `studio serve`'s sweep of `uploads/` where a bucket is set: a minute after start (or sooner, when the
 * interval is shorter), then every hour, deletes uploads older than a day. Several instances may sweep at
 * once: a delete is the same whoever makes it. A sweep that fails (the store unreachable) is reported
 * through `report` and tried again at the next turn, never fatal. Answers the stop.
 */
export function startUploadSweeps(report: (outcome: { swept?: number; error?: string }) => void): () => void {
  return periodically(
    msFrom('STUDIO_UPLOAD_SWEEP_MS', UPLOAD_SWEEP_MS),
    async () => {
      const swept = await sweepUploads(msFrom('STUDIO_UPLOAD_MAX_AGE_MS', UPLOAD_MAX_AGE_MS))
      if (swept) report({ swept })
    },
    (error) => report({ error }),
  )
}
