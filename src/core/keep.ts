/**
 * How long this process keeps what it starts on demand (the shared Chromium of src/render/browser.ts)
 * once nothing uses it: `0` closes it at once (a library call, a test in process), `Infinity` until
 * `releaseKept()` (one CLI command: an export's light, dark and verify passes share one browser, closed
 * when the command ends), a number of milliseconds in a long-lived server (`studio serve`, `studio mcp`).
 * Kept here, below the renderer, so the CLI can end a command without loading it.
 */
let keepMs = 0
const releasers = new Set<() => Promise<void>>()

export function keepFor(ms: number): void {
  keepMs = ms
}

export function keptFor(): number {
  return keepMs
}

/** A long-lived process's keep period: STUDIO_BROWSER_IDLE_MS, else 30 s after the last use. */
export function serverKeepMs(env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env.STUDIO_BROWSER_IDLE_MS)
  return env.STUDIO_BROWSER_IDLE_MS && Number.isFinite(given) && given >= 0 ? given : 30_000
}

/** Registers what closes a kept resource when the process ends its work. */
export function onReleaseKept(release: () => Promise<void>): void {
  releasers.add(release)
}

/** Closes everything kept (the end of a CLI command, a server's shutdown). */
export async function releaseKept(): Promise<void> {
  await Promise.all([...releasers].map((release) => release().catch(() => undefined)))
}
