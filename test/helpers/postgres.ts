/**
 * A throw-away PostgreSQL cluster for a test file (the hosted studio's tests): `initdb` into a fresh temp
 * folder, `postgres` listening on 127.0.0.1 on a free port (and a socket in that folder), run as an
 * unprivileged user when the tests run as root (PostgreSQL refuses root), fsync off. It stops, and its
 * folder goes, when the test file ends — and when the test process dies, by a kill on exit.
 * `.ci/run` installs Debian's `postgresql`; without it the tests skip here and fail under CI
 * (test/helpers/system.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Why the PostgreSQL tests skip on a machine without it (they fail under CI instead). */
export const POSTGRES_MISSING = 'PostgreSQL is not installed (apt-get install postgresql)'

/** The folder of PostgreSQL's programs (Debian: /usr/lib/postgresql/<version>/bin), or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
    if (versions.length) return join(root, versions[0], 'bin')
  }
  try {
    const initdb = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim()
    return initdb ? initdb.replace(/\/initdb$/, '') : undefined
  } catch {
    return undefined
  }
}

export interface Cluster {
  /** postgres://… of the cluster's database `studio` (user `studio`, no password: trust on loopback). */
  url: string
  /** A fresh, empty database of the cluster, as a URL. */
  database(name: string): Promise<string>
  /** A fresh, empty database with a name of its own, as a URL. */
  freshDatabase(): Promise<string>
  stop(): Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

/** Starts a cluster (about a second); the caller stops it in `after`. */
export async function startPostgres(): Promise<Cluster> {
  const bin = postgresBin()
  if (!bin) throw new Error(POSTGRES_MISSING)
  const dir = mkdtempSync(join(tmpdir(), 'studio-pg-'))
  const data = join(dir, 'data')
  // As root, run the server as `nobody` (PostgreSQL refuses to run as root), owning its folder.
  const asRoot = process.getuid?.() === 0
  const user = asRoot ? Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim()) : undefined
  const group = asRoot ? Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim()) : undefined
  if (asRoot) {
    chmodSync(dir, 0o700)
    chownSync(dir, user!, group!)
  }
  const run = (program: string, args: string[]) => execFileSync(join(bin, program), args, { stdio: 'pipe', ...(asRoot ? { uid: user, gid: group } : {}), env: { ...process.env, LC_ALL: 'C' } })
  run('initdb', ['-D', data, '-U', 'studio', '-A', 'trust', '-E', 'UTF8', '--no-sync'])
  const port = await freePort()
  const server: ChildProcess = spawn(join(bin, 'postgres'), ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(asRoot ? { uid: user, gid: group } : {}),
    env: { ...process.env, LC_ALL: 'C' },
  })
  let log = ''
  server.stderr!.on('data', (d) => (log += d))
  const kill = () => server.kill('SIGKILL')
  process.once('exit', kill)
  const url = `postgres://studio@127.0.0.1:${port}/postgres`
  const { default: pg } = await import('pg')
  // Ready once a client connects.
  for (let i = 0; ; i++) {
    const client = new pg.Client({ connectionString: url })
    try {
      await client.connect()
      await client.end()
      break
    } catch (error) {
      await client.end().catch(() => undefined)
      if (i > 200 || server.exitCode !== null) {
        kill()
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const database = async (name: string) => {
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      await admin.query(`create database "${name.replace(/[^a-z0-9_]/g, '_')}"`)
    } finally {
      await admin.end()
    }
    return `postgres://studio@127.0.0.1:${port}/${name.replace(/[^a-z0-9_]/g, '_')}`
  }
  let made = 0
  return {
    url: await database('studio'),
    database,
    freshDatabase: () => database(`fresh_${++made}`),
    stop: async () => {
      process.removeListener('exit', kill)
      if (server.exitCode === null) {
        const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
        server.kill('SIGINT') // fast shutdown
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
        if (server.exitCode === null) kill()
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
