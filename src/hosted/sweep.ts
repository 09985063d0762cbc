/**
 * The hosted store's sweep of objects no change names (docs/hosting.md "What each part promises"): the
 * bytes of a write that was refused (409: another writer came first), or of an instance killed between
 * its puts and its commit. Every change keeps its objects for ever (history, restore and pull read them);
 * only objects no row names and older than the grace (a day) are removed.
 *
 * Safe beside writers that put first and commit after, and under kills: the sweep decides on objects a
 * day old; then, for each batch, holding the version row every write takes, it looks again at the changes
 * committed since it read the names and records what it will remove in `studio_swept` (committed); then it
 * deletes each object while holding its record. A write that commits after the record names no removed
 * object unknowingly: holding the version row, it looks for its objects there (objects.ts `refuseSwept`),
 * clears their records (waiting for a sweep deleting them), puts them again, and commits. A sweep killed
 * between the two steps leaves records and objects: a write re-puts needlessly, the next sweep finishes.
 * One instance sweeps at a time (an advisory lock).
 */
import type { Pool } from 'pg'
import type { S3Client } from '@aws-sdk/client-s3'
import { bucket, s3Client } from './s3.js'
import { inTransaction } from './deck-store.js'
import { fault } from '../store/fault.js'
import { msFrom, periodically } from './periodic.js'

/** Objects younger than this are never removed (STUDIO_OBJECT_GRACE_MS changes it). */
export const OBJECT_GRACE_MS = 24 * 60 * 60 * 1000
/** How long the record of a removed object is kept: far beyond any write's time from put to commit. */
const SWEPT_KEPT = '7 days'
const SWEEP_LOCK = 0x5354_5357 // "STSW"
const BATCH = 200
const PARALLEL = 8
const KEY_RE = /^objects\/sha256\/([0-9a-f]{2})\/([0-9a-f]{64})$/
const OWNER_KEY = 'objects/deployment'

export interface SweepOutcome {
  /** Another instance was sweeping: this one did nothing. */
  skipped?: true
  /** The bucket belongs to another deployment (its `objects/deployment` names another database): nothing was swept. */
  foreign?: string
  /** Objects in the store. */
  listed: number
  /** Objects removed. */
  swept: number
}

/** Every digest a row names: each change's files, each head, each storage migration's plan. */
async function namedDigests(pool: Pool): Promise<Set<string>> {
  const { rows } = await pool.query<{ sha: string }>(
    `select f.value as sha from studio_changes c cross join lateral jsonb_each_text(c.files) f where f.value is not null
     union select f.value from studio_heads h cross join lateral jsonb_each_text(h.files) f where f.value is not null
     union select f.value from studio_migration_changes m cross join lateral jsonb_each_text(m.files) f where f.value is not null
     union select b.key from studio_migration_changes m cross join lateral jsonb_each_text(m.blobs) b`,
  )
  return new Set(rows.map((r) => r.sha))
}

/**
 * Removes the objects no row names that are older than `graceMs`. Answers how many it listed and removed;
 * `skipped` when another instance holds the sweep.
 */
export async function sweepObjects(pool: Pool, options: { graceMs?: number; now?: number } = {}): Promise<SweepOutcome> {
  const graceMs = options.graceMs ?? OBJECT_GRACE_MS
  const now = options.now ?? Date.now()
  const holder = await pool.connect()
  try {
    const { rows: locked } = await holder.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [SWEEP_LOCK])
    if (!locked[0].ok) return { skipped: true, listed: 0, swept: 0 }
    try {
      return await sweepHolding(pool, graceMs, now)
    } finally {
      await holder.query('select pg_advisory_unlock($1)', [SWEEP_LOCK])
    }
  } finally {
    holder.release()
  }
}

/**
 * The deployment the bucket's objects belong to: `objects/deployment`, written by the first sweep. A bucket
 * two deployments share (staging beside production, say) is swept by neither but the first: each database
 * names only its own objects, and would take the other's for unnamed ones.
 */
async function ownerOf(s3: S3Client, mine: string): Promise<string> {
  const { GetObjectCommand, PutObjectCommand } = await import('@aws-sdk/client-s3')
  const found = await s3.send(new GetObjectCommand({ Bucket: bucket()!, Key: OWNER_KEY })).then(
    async (answer) => (await answer.Body!.transformToString()).trim(),
    (error: { name?: string; $metadata?: { httpStatusCode?: number } }) => {
      if (error.name === 'NoSuchKey' || error.$metadata?.httpStatusCode === 404) return undefined
      throw error
    },
  )
  if (found !== undefined) return found
  await s3.send(new PutObjectCommand({ Bucket: bucket()!, Key: OWNER_KEY, Body: mine, ContentType: 'text/plain' }))
  return mine
}

async function sweepHolding(pool: Pool, graceMs: number, now: number): Promise<SweepOutcome> {
  const s3 = await s3Client('The hosted store needs STUDIO_S3_BUCKET.')
  const { rows: head } = await pool.query<{ seq: string; deployment: string }>('select seq, deployment from studio_store where id = 1')
  const owner = await ownerOf(s3, head[0].deployment)
  if (owner !== head[0].deployment) return { foreign: owner.slice(0, 80), listed: 0, swept: 0 }
  await pool.query(`delete from studio_swept where at < now() - interval '${SWEPT_KEPT}'`)
  const readAt = Number(head[0].seq)
  const named = await namedDigests(pool)
  const { DeleteObjectCommand, ListObjectsV2Command } = await import('@aws-sdk/client-s3')
  const candidates: string[] = []
  let listed = 0
  let token: string | undefined
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket()!, Prefix: 'objects/sha256/', ...(token ? { ContinuationToken: token } : {}) }))
    for (const object of page.Contents ?? []) {
      const match = object.Key ? KEY_RE.exec(object.Key) : null
      if (!match) continue
      listed++
      const sha = match[2]
      if (match[1] !== sha.slice(0, 2) || named.has(sha)) continue
      if (!object.LastModified || now - object.LastModified.getTime() < graceMs) continue
      candidates.push(sha)
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined
  } while (token)

  let swept = 0
  for (let i = 0; i < candidates.length; i += BATCH) {
    const batch = candidates.slice(i, i + BATCH)
    // First the record, holding the version row (no write commits meanwhile): from its commit on, a write
    // naming one of these puts it again first. Names committed since they were read keep their objects.
    const doomed = await inTransaction(pool, async (client) => {
      await client.query('select seq from studio_store where id = 1 for update')
      const since = await client.query<{ sha: string }>(
        `select f.value as sha from studio_changes c cross join lateral jsonb_each_text(c.files) f where c.seq > $1 and f.value = any($2::text[])
         union select f.value from studio_migration_changes m cross join lateral jsonb_each_text(m.files) f where f.value = any($2::text[])
         union select b.key from studio_migration_changes m cross join lateral jsonb_each_text(m.blobs) b where b.key = any($2::text[])`,
        [readAt, batch],
      )
      const nowNamed = new Set(since.rows.map((r) => r.sha))
      const out = batch.filter((sha) => !nowNamed.has(sha))
      if (out.length) await client.query('insert into studio_swept (sha) select unnest($1::text[]) on conflict (sha) do update set at = now()', [out])
      return out
    })
    if (!doomed.length) continue
    fault('sweep-recorded')
    // Then the deletes, each only while its record stands (held, so a write clearing it waits): a write
    // that cleared it first keeps the object; one that clears it after puts the bytes again after this.
    swept += await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ sha: string }>('select sha from studio_swept where sha = any($1::text[]) for update', [doomed])
      let next = 0
      let done = 0
      const worker = async () => {
        while (next < rows.length) {
          const sha = rows[next++].sha
          // A delete that fails leaves the object and its record: a write naming it puts it again, harmlessly.
          await s3.send(new DeleteObjectCommand({ Bucket: bucket()!, Key: `objects/sha256/${sha.slice(0, 2)}/${sha}` })).then(
            () => done++,
            () => undefined,
          )
        }
      }
      await Promise.all(Array.from({ length: Math.min(PARALLEL, rows.length) }, worker))
      return done
    })
  }
  return { listed, swept }
}

/** How often `studio serve --store hosted` sweeps objects (STUDIO_OBJECT_SWEEP_MS). */
export const OBJECT_SWEEP_MS = 60 * 60 * 1000

/** `studio serve --store hosted`'s sweep of objects, a minute after start and every hour; failures reported, never fatal. */
export function startObjectSweeps(pool: Pool, report: (outcome: { swept?: number; error?: string }) => void): () => void {
  return periodically(
    msFrom('STUDIO_OBJECT_SWEEP_MS', OBJECT_SWEEP_MS),
    async () => {
      const { swept, foreign } = await sweepObjects(pool, { graceMs: msFrom('STUDIO_OBJECT_GRACE_MS', OBJECT_GRACE_MS) })
      if (foreign) report({ error: `the bucket's objects belong to another deployment (${OWNER_KEY} names ${foreign}): this one sweeps nothing there. Give each deployment its own bucket.` })
      else if (swept) report({ swept })
    },
    (error) => report({ error }),
  )
}
