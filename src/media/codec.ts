/**
 * The slow work on files users hand us (decoding, sanitizing, resizing, dithering, rasterizing) runs
 * in a codec process, never on the caller's event loop; actions run it in their `prepare` step, before
 * the deck's lock is taken (src/core/engine.ts), so neither other callers of `studio serve` nor the
 * lock's refresh wait for it.
 *
 * Each job has budgets, and going over one is a 4xx that names it, with nothing written:
 * - time: `CODEC_TIME_MS` (120 s: a 2 MiB SVG of small shapes took 40–58 s on a 2-core machine at load 16–18; `STUDIO_CODEC_TIME_MS` changes it), then the process is killed
 *   (422 `unprocessable`);
 * - memory: the process's JavaScript heap is capped at `CODEC_HEAP_MB` (512 MB; `STUDIO_CODEC_HEAP_MB`
 *   changes it), 413 `payload_too_large` when it runs out; native decoders are held by the input caps each codec checks before decoding
 *   (pixel count and sides in src/media/images.ts, element, filter and `<use>` counts in
 *   src/media/svg.ts).
 *
 * A process, not a worker thread: `Worker.terminate()` waits for the native call under way, and
 * librsvg drawing one filter-heavy SVG does not return for minutes (sharp's own `timeout` is never
 * checked inside it); a killed process stops at once. The codec modules are loaded in the child only,
 * so a command that decodes nothing pays for none of it.
 */
import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { StudioError, type ErrorBody, type ErrorCode } from '../core/errors.js'
import type { CodecJobs } from './codec-child.js'

export const CODEC_TIME_MS = 120_000
export const CODEC_HEAP_MB = 512

/** The budgets: `STUDIO_CODEC_TIME_MS` and `STUDIO_CODEC_HEAP_MB` when set to a positive number, else the defaults. */
export function codecBudgets(): { timeMs: number; heapMb: number } {
  const set = (name: string, fallback: number) => {
    const value = Number(process.env[name])
    return Number.isFinite(value) && value > 0 ? value : fallback
  }
  return { timeMs: set('STUDIO_CODEC_TIME_MS', CODEC_TIME_MS), heapMb: Math.round(set('STUDIO_CODEC_HEAP_MB', CODEC_HEAP_MB)) }
}

/** The child's entry beside this module: the source (.ts under tsx) or the bundle's dist/codec-child.js. */
function childEntry(): string {
  const here = dirname(fileURLToPath(import.meta.url))
  const found = [join(here, 'codec-child.ts'), join(here, 'codec-child.js'), join(here, '..', 'codec-child.js')].find((file) => existsSync(file))
  if (!found) throw new Error('The codec entry (codec-child.js) is missing beside the build: run npm run build.')
  return found
}

type Job = keyof CodecJobs
type Payload<J extends Job> = Parameters<CodecJobs[J]>[0]
type Answer<J extends Job> = Awaited<ReturnType<CodecJobs[J]>>

/**
 * Runs codec job `job` in a fresh process under the time and memory budgets. A refusal inside the
 * job (a StudioError) comes back as the same error; `pointer` names the input field in a budget's error.
 */
export function runCodec<J extends Job>(job: J, payload: Payload<J>, options: { pointer?: string } = {}): Promise<Answer<J>> {
  const pointer = options.pointer ?? '/file'
  const { timeMs, heapMb } = codecBudgets()
  // The parent's loaders (tsx under the tests) come along; its own heap flags and test-runner flags do not.
  const execArgv = [...process.execArgv.filter((arg) => !/^--(max-old-space-size|test|inspect|watch)/.test(arg)), `--max-old-space-size=${heapMb}`]
  return new Promise<Answer<J>>((resolve, reject) => {
    const child = fork(childEntry(), [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk
    })
    let settled = false
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      fn()
    }
    const timer = setTimeout(() => {
      settle(() => reject(new StudioError('unprocessable', `Processing the file went over its time budget of ${timeMs / 1000} s and was stopped; nothing was written. Simplify the file (fewer elements or filters, smaller dimensions) or send a smaller one.`, { pointer, details: { limit: 'time', budgetMs: timeMs } })))
    }, timeMs)
    child.on('message', (message: { ok?: unknown; error?: ErrorBody }) => {
      if (message.error) {
        const { code, message: text, status: _status, ...extra } = message.error
        settle(() => reject(new StudioError(code as ErrorCode, text, { pointer, ...extra })))
      } else settle(() => resolve(revive(message.ok) as Answer<J>))
    })
    child.on('error', (error) => settle(() => reject(error)))
    child.on('exit', (code, signal) => {
      if (/heap out of memory|Reached heap limit/i.test(stderr)) {
        settle(() => reject(new StudioError('payload_too_large', `Processing the file went over its memory budget of ${heapMb} MB; nothing was written. Send a smaller or simpler file.`, { pointer, details: { limit: 'memory', budgetMb: heapMb } })))
      } else {
        settle(() => reject(new StudioError('unprocessable', `The file could not be processed: the codec stopped (${signal ?? `exit ${code}`}) before it answered; nothing was written.`, { pointer, details: { limit: 'codec' } })))
      }
    })
    child.send({ job, payload })
  })
}

/** Byte arrays come back from the child as Uint8Array: as Buffers again, wherever they sit. */
function revive(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  if (Array.isArray(value)) return value.map(revive)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) out[key] = revive(inner)
    return out
  }
  return value
}
