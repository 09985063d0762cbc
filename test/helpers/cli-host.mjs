/**
 * One long-lived process that runs `studio <args>` commands one after another, in process, for a test
 * file that opted in (see `cliInOneProcess` in studio.ts). Each command gets what a fresh
 * `node bin/studio.js` would: its working directory, its environment (replaced whole), its argv, its
 * stdin, stdout and stderr as pipes, and its exit code — from `process.exit` (the first call wins and
 * nothing written after it counts, as in a process that ended there) or `process.exitCode`. A command
 * is over when the process would have exited: when nothing it started still holds the event loop
 * (`process.getActiveResourcesInfo()` back to what the host itself holds). What it does not give is a
 * fresh module state: the CLI's code is loaded once. An uncaught error ends the host after the command
 * answers (code 1 and the stack on stderr, as a crash would), and the next command starts a new host.
 *
 * Protocol (IPC): { id, cwd, args, env, stdin } in; { id, code, stdout, stderr } out.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { pathToFileURL } from 'node:url'

const BIN = process.argv[2]
const CLI = new URL('../dist/cli.js', pathToFileURL(BIN))

class Exited extends Error {
  constructor(code) {
    super(`exit ${code}`)
    this.exitCode = code
  }
}

/** The command running now: its output so far and its exit code once it called process.exit. */
let current
const realExit = process.exit.bind(process)
process.exit = (code) => {
  if (!current) realExit(code)
  current.exitCode ??= code ?? process.exitCode ?? 0
  throw new Exited(current.exitCode)
}
for (const [name, stream] of [['stdout', process.stdout], ['stderr', process.stderr]]) {
  const write = stream.write.bind(stream)
  stream.write = (chunk, encoding, callback) => {
    if (!current) return write(chunk, encoding, callback)
    if (current.exitCode === undefined) current[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8')
    const done = typeof encoding === 'function' ? encoding : callback
    if (done) process.nextTick(done)
    return true
  }
}
let crashed
const crash = (error) => {
  if (!current || crashed) return realExit(70)
  crashed = error
  if (current.exitCode === undefined) {
    current.stderr += `${error?.stack ?? error}\n`
    current.exitCode = 1
  }
}
process.on('uncaughtException', crash)
process.on('unhandledRejection', crash)
// The CPU report (scripts/cpu-report.mjs, STUDIO_TEST_CPU_LOG) counts a test file's children when they are reaped; the
// host is not waited for, so it adds its own line.
const cpuLog = process.env.STUDIO_TEST_CPU_LOG
process.on('disconnect', () => {
  if (cpuLog) {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ').map(Number)
    appendFileSync(cpuLog, JSON.stringify({ file: 'cli-host', self: (f[11] + f[12]) / 100, children: (f[13] + f[14]) / 100, commands }) + '\n')
  }
  realExit(0)
})
let commands = 0

/** Counts of the resources that hold the event loop, by kind. */
function holding() {
  const counts = new Map()
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1)
  return counts
}

/** Resolves once nothing beyond `baseline` holds the event loop (the moment a process would exit), or after `limitMs`. */
function settled(baseline, limitMs) {
  const until = Date.now() + limitMs
  return new Promise((resolve) => {
    const check = () => {
      const now = holding()
      const busy = [...now].some(([kind, n]) => n > (baseline.get(kind) ?? 0))
      if (!busy) return resolve(true)
      if (Date.now() > until) return resolve(false)
      // Checked from an immediate: inside its own callback a timer still counts as holding the loop.
      setTimeout(() => setImmediate(check), 2)
    }
    setImmediate(check)
  })
}

const cli = await import(CLI.href)
const baseEnv = { ...process.env }
const queue = []
let running = false

async function runOne({ id, cwd, args, env, stdin }) {
  commands++
  const baseline = holding()
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key]
  Object.assign(process.env, env)
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  process.chdir(cwd)
  process.argv = [process.execPath, BIN, ...args]
  process.exitCode = undefined
  const input = Readable.from(stdin ? [Buffer.from(stdin, 'base64')] : [])
  Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, get: () => input })
  current = { stdout: '', stderr: '', exitCode: undefined }
  try {
    await cli.main(pathToFileURL(BIN).href)
  } catch (error) {
    if (!(error instanceof Exited)) crash(error)
  }
  const quiet = await settled(baseline, 120_000)
  const done = current
  current = undefined
  let code = done.exitCode ?? process.exitCode ?? 0
  if (!quiet) {
    done.stderr += `cli-host: the command still held the event loop 120 s after it answered: ${process.getActiveResourcesInfo().join(', ')}\n`
    code = 1
    crashed ??= new Error('busy')
  }
  process.exitCode = undefined
  for (const key of Object.keys(process.env)) if (!(key in baseEnv)) delete process.env[key]
  Object.assign(process.env, baseEnv)
  process.send({ id, code: typeof code === 'number' ? code : Number(code) || 0, stdout: done.stdout, stderr: done.stderr })
  if (crashed) setTimeout(() => realExit(0), 50)
}

process.on('message', (message) => {
  queue.push(message)
  if (running) return
  running = true
  ;(async () => {
    while (queue.length && !crashed) await runOne(queue.shift())
    running = false
  })()
})
process.send({ ready: true })
