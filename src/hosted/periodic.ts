/** Background turns of `studio serve` (the sweeps of uploads/ and of unnamed objects). */

/** A positive whole number of milliseconds from the environment, else `fallback`. */
export function msFrom(name: string, fallback: number): number {
  const value = Number(process.env[name])
  return Number.isInteger(value) && value > 0 ? value : fallback
}

/**
 * Runs `turn` a minute after start (or sooner, where `everyMs` is shorter), then every `everyMs` after the
 * last turn ended; one turn at a time, never keeping the process alive. A turn that throws is reported
 * through `failed` and tried again at the next. Answers the stop.
 */
export function periodically(everyMs: number, turn: () => Promise<void>, failed: (error: string) => void): () => void {
  let stopped = false
  let timer: NodeJS.Timeout
  const run = async () => {
    try {
      await turn()
    } catch (error) {
      failed(error instanceof Error ? error.message : String(error))
    }
    if (!stopped) timer = setTimeout(run, everyMs).unref()
  }
  timer = setTimeout(run, Math.min(everyMs, 60_000)).unref()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
