/**
 * The codec process (src/media/codec.ts starts one per job): reads one job from its parent, runs it,
 * answers with the result or the error shape, and exits. Nothing here touches the workspace: bytes in,
 * bytes out.
 */
import { getPriority, setPriority } from 'node:os'
import { StudioError } from '../core/errors.js'
import type { IngestedImage, StoredFormat } from './images.js'
import type { PlateName, ToneMetrics, Treatment } from './variants.js'

export interface PictureJob {
  bytes: Uint8Array
  svg: boolean
  pointer: string
  /** The rendered twins of a plain picture (asset.add without two-tone). */
  twins?: boolean
  /** The two-tone pipeline's twins and metrics, on the deck's palette. */
  twoTone?: { treatment?: Record<string, unknown>; plate?: PlateName; palette: { ink: string; paper: string } }
}

export interface PreparedPicture {
  image: IngestedImage
  twins?: { scale: 1 | 2; width: number; height: number; format: StoredFormat; bytes: Buffer }[]
  twoTone?: { treatment: Treatment; palette: { ink: string; paper: string }; twins: { scale: 1 | 2; width: number; height: number; bytes: Buffer }[]; metrics: ToneMetrics }
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

export const JOBS = {
  /** A picture as it enters a deck: cleaned (src/media/images.ts), then its twins drawn. */
  async picture(job: PictureJob): Promise<PreparedPicture> {
    const images = await import('./images.js')
    const bytes = asBuffer(job.bytes)
    const image = job.svg ? await images.ingestSvg(bytes, { pointer: job.pointer }) : await images.ingestRaster(bytes, { pointer: job.pointer })
    if (job.twoTone) return { image, twoTone: await JOBS.twoTone({ source: image.bytes, width: image.width, height: image.height, ...job.twoTone }) }
    return { image, ...(job.twins ? { twins: await images.twinsOf(image) } : {}) }
  },
  /** The two-tone pipeline on a picture already in a deck (asset.dither, material captures). */
  async twoTone(job: { source: Uint8Array; width: number; height: number; treatment?: Record<string, unknown>; plate?: PlateName; palette: { ink: string; paper: string } }): Promise<NonNullable<PreparedPicture['twoTone']>> {
    const { resolveTreatment, twoToneTwins } = await import('./variants.js')
    const treatment = resolveTreatment(job.treatment)
    const { twins, metrics } = await twoToneTwins(asBuffer(job.source), job.width, job.height, treatment, job.palette, job.plate)
    return { treatment, palette: job.palette, twins: twins.map(({ scale, width, height, bytes }) => ({ scale, width, height, bytes })), metrics }
  },
}

export type CodecJobs = typeof JOBS

function answer(message: unknown): void {
  process.send!(message, () => process.exit(0))
}

if (process.send) {
  // Below the parent's priority: on a busy machine the server answering its callers comes first (the
  // threads sharp starts later inherit it).
  try {
    setPriority(Math.min(19, getPriority() + 10))
  } catch {
    // Not permitted here: run at the parent's priority.
  }
  process.once('message', async ({ job, payload }: { job: keyof CodecJobs; payload: never }) => {
    try {
      const run = Object.hasOwn(JOBS, job) ? JOBS[job] : undefined
      if (!run) throw new Error(`No codec job "${String(job)}".`)
      answer({ ok: await run(payload) })
    } catch (error) {
      // A refusal keeps its code; anything else a codec threw is a file it could not process (its
      // message is sharp's or jsdom's about the bytes, which hold no server path).
      const shaped = error instanceof StudioError ? error : new StudioError('unprocessable', `The file could not be processed (${String((error as Error)?.message ?? error).split('\n')[0].slice(0, 200)}).`)
      answer({ error: shaped.toJSON() })
    }
  })
}
