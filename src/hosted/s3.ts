/**
 * The one S3 client of a process (AWS SDK v3), for presigned uploads (uploads.ts) and the hosted deck
 * store's objects (objects.ts). Configured by the environment an operator expects: STUDIO_S3_BUCKET
 * (required), STUDIO_S3_ENDPOINT (an S3-compatible server: MinIO, R2, Ceph; AWS S3 when unset),
 * STUDIO_S3_FORCE_PATH_STYLE=1 for servers that need it, and the SDK's own AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_REGION. The SDK loads only where a bucket is set.
 */
import type { S3Client } from '@aws-sdk/client-s3'
import { fail } from '../core/errors.js'

export const bucket = (): string | undefined => process.env.STUDIO_S3_BUCKET?.trim() || undefined

let made: { key: string; client: S3Client } | undefined

/** The client for the configured bucket; `missing` is the answer (501) where no bucket is set. */
export async function s3Client(missing: string, pointer?: string): Promise<S3Client> {
  if (!bucket()) fail('not_implemented', missing, { ...(pointer ? { pointer } : {}), details: { implemented: false } })
  const endpoint = process.env.STUDIO_S3_ENDPOINT?.trim() || undefined
  const pathStyle = process.env.STUDIO_S3_FORCE_PATH_STYLE === '1'
  const key = `${endpoint ?? ''}|${pathStyle}|${process.env.AWS_REGION ?? ''}`
  if (made?.key === key) return made.client
  // The SDK's notice that its releases after January 2027 need Node 22 is not news to an operator of this
  // build (package.json pins a release that runs on Node 20, docs/hosting.md) and would break STUDIO_LOG=json's lines.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  const { S3Client } = await import('@aws-sdk/client-s3')
  const created = new S3Client({ ...(endpoint ? { endpoint } : {}), forcePathStyle: pathStyle, region: process.env.AWS_REGION || 'us-east-1' })
  made = { key, client: created }
  return created
}

/** Closes the client's sockets (a command ends without waiting for the server to drop its keep-alive connections). */
export function closeS3(): void {
  made?.client.destroy()
  made = undefined
}
