/**
 * Polls `read` until `check` holds, for what a test waits on that another process or the page does in its
 * own time (a mail captured, a switch seen, a page's write landed); fails naming `what` and the last value
 * after `timeoutMs`. A deadline for a wait, never a timing under test.
 */
import assert from 'node:assert/strict'

export async function until<T>(what: string, read: () => Promise<T> | T, check: (value: T) => boolean, timeoutMs = 15000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (check(value)) return value
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(value)?.slice(0, 400)}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
