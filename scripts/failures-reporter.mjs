/**
 * A second reporter for `npm test`, beside TAP: says nothing while the tests run, then repeats each failed
 * test at the very end — its file, its name with the suites around it, and its error — so that the last
 * lines of a long run (all a CI log's tail shows) name what failed. Node's runner calls it with the stream of
 * test events (https://nodejs.org/docs/latest-v20.x/api/test.html#custom-reporters).
 */
export default async function* failures(source) {
  const failed = []
  /** Per file (two run at once), the names of the suites open at each nesting level, for a failure's full name. */
  const open = new Map()
  for await (const event of source) {
    if (event.type === 'test:start') {
      if (!open.has(event.data.file)) open.set(event.data.file, [])
      open.get(event.data.file)[event.data.nesting] = event.data.name
    }
    if (event.type !== 'test:fail') continue
    const { name, nesting, file, details } = event.data
    const error = details?.error
    // A suite fails when a test in it fails; only the tests themselves are worth repeating.
    if (error?.failureType === 'subtestsFailed') continue
    const cause = error?.cause ?? error
    const message = String(cause?.message ?? cause ?? error?.message ?? 'failed').split('\n').slice(0, 12).join('\n    ')
    failed.push(`not ok: ${[...(open.get(file) ?? []).slice(0, nesting), name].join(' > ')}\n  file: ${file ?? '?'}\n  error: ${message}`)
  }
  if (failed.length === 0) return
  yield `\n# ${failed.length} failed (repeated here from above):\n${failed.join('\n')}\n`
}
