import { Command, Flags } from '@oclif/core'
import { fail, toStudioError } from '../src/core/errors.js'
import { RESERVED_DECK_IDS, SLUG } from '../src/model/schema.js'
import { Workspace } from '../src/store/workspace.js'

/**
 * Says on stderr that `--deck` names a deck not created yet, and again once it exists (polled: one
 * stat a second, on a timer that never keeps the process alive). The server already names it as the
 * default deck and the page's start, so nothing else changes when it appears.
 */
function waitForDeck(ws: Workspace, deck: string): { stop: () => void } {
  process.stderr.write(`studio serve: waiting for deck ${deck}; create it with \`studio deck create <name> --id ${deck}\` (MCP: deck_create with id ${deck})\n`)
  const timer = setInterval(() => {
    if (!ws.deckExists(deck)) return
    clearInterval(timer)
    process.stderr.write(`studio serve: deck ${deck} exists now; serving it\n`)
  }, 1000)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

/** How often a running server sends the notification mail that fell due (src/comments/notify.ts). */
const MAIL_CHECK_MS = 60_000

/**
 * Sends notification mail as windows end, though no call comes in (each notify and notification.list
 * also does): a timer that never keeps the process alive.
 */
function sendMailWhenDue(ws: Workspace): { stop: () => void } {
  const timer = setInterval(() => {
    import('../src/comments/notify.js')
      .then(({ sendDueMail }) => sendDueMail(ws))
      .catch((error: Error) => process.stderr.write(`studio serve: notification mail: ${error.message}\n`))
  }, MAIL_CHECK_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

/** `studio serve`: HTTP actions, discovery, bundles and MCP on one port. */
export default class Serve extends Command {
  static summary = 'Serve the workspace over HTTP and MCP'
  static description = [
    'Serves POST /api/actions/<id> for every HTTP action, GET /api/agent, GET /api/actions/{id}, GET /openapi.json, GET /llms.txt,',
    'the bundle endpoints (POST /api/decks/bundle, GET /api/decks/<id>/bundle) and MCP over streamable HTTP at /mcp.',
    'Binds 127.0.0.1:4321 by default; on loopback no token is needed. Off loopback every request needs',
    'Authorization: Bearer $STUDIO_TOKEN, and the server refuses to start without STUDIO_TOKEN set.',
    'Every request must name this server in Host (else 403, before any token check): on a wildcard bind (0.0.0.0, ::)',
    'that is localhost, 127.0.0.1, [::1], the machine\'s own addresses, and the names given with --allow-host.',
    'Without --deck (or ?deck= on a request) calls use the workspace default deck; run outside any workspace, that is the embedded default deck.',
  ].join('\n')
  static examples = ['<%= config.bin %> serve', '<%= config.bin %> serve --port 0 --json', 'STUDIO_TOKEN=$(openssl rand -hex 32) <%= config.bin %> serve --host 0.0.0.0 --allow-host studio.lan']
  static flags = {
    port: Flags.integer({ description: 'Port (0 picks a free one).', default: 4321, min: 0, max: 65535 }),
    host: Flags.string({ description: 'Address to bind.', default: '127.0.0.1' }),
    deck: Flags.string({ description: 'Default deck for calls that name none; the page opens it at /. It may not exist yet: the server waits for it (calls answer 404 until `studio deck create --id` or deck_create makes it).' }),
    root: Flags.string({ description: 'Workspace folder; default: STUDIO_ROOT, else found from the working directory upward.' }),
    'allow-host': Flags.string({
      description: 'A further Host name to answer to (a proxy\'s or the machine\'s DNS name), or an origin (https://studio.example.com) a TLS proxy serves; repeatable. Also STUDIO_ALLOW_HOSTS (comma list).',
      multiple: true,
      aliases: ['allowed-host'],
    }),
    'bundle-limit': Flags.integer({ description: 'Largest bundle upload in bytes (default 4.5 MB; STUDIO_BUNDLE_LIMIT).' }),
    ttl: Flags.integer({ description: 'Stop by itself after this many seconds (for tests and demos).' }),
    json: Flags.boolean({ description: 'Print the address as one JSON line when listening.' }),
    store: Flags.string({
      description:
        'Where decks are stored: git (the workspace, the default) or hosted (PostgreSQL and an S3-compatible object store, from STUDIO_DATABASE_URL and STUDIO_S3_*; no workspace folder; several instances may serve one store: docs/hosting.md). Also STUDIO_STORE.',
      options: ['git', 'hosted'],
      env: 'STUDIO_STORE',
    }),
    accounts: Flags.boolean({ description: 'Turn accounts on: create the identity database (.studio/identity.db) if missing. People sign in, decks have owners and roles (docs/access.md). On by itself where the database exists.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve)
    try {
      // The hosted store keeps decks in PostgreSQL and the object store; the instance reads a replica it rebuilds at start.
      const hosted = flags.store === 'hosted'
      if (hosted && flags.root) fail('invalid_input', 'A hosted instance has no workspace folder: --root and --store hosted do not go together (STUDIO_CACHE_DIR names where its replica is kept).', { path: 'root' })
      const ws = hosted ? await (await import('../src/hosted/deck-store.js')).openHosted((await import('../src/hosted/deck-store.js')).hostedOptionsFromEnv()) : Workspace.find({ root: flags.root })
      // A deck that does not exist yet is served once it does (studio deck create --id, deck_create); until then its calls answer 404.
      if (flags.deck !== undefined && (!new RegExp(SLUG).test(flags.deck) || RESERVED_DECK_IDS.has(flags.deck))) fail('invalid_input', `"${flags.deck}" is not a deck id: lower-case letters, digits and single hyphens.`, { path: 'deck' })
      const deck = flags.deck ?? (await ws.defaultDeckId().catch(() => undefined))
      // A long-lived process: decks stay cached between calls, checked against the files before each use.
      ;(await import('../src/store/deck-cache.js')).enableDeckCache()
      const keep = await import('../src/core/keep.js')
      keep.keepFor(keep.serverKeepMs())
      if (flags.accounts) {
        ws.refuseEmbeddedWrite('studio serve --accounts')
        await (await import('../src/identity/db.js')).identityOf(ws, { create: true })
      }
      const { startServer } = await import('../src/transports/http/server.js')
      const running = await startServer({
        ws,
        host: flags.host,
        port: flags.port,
        deck,
        ...(flags.deck ? { openDeck: flags.deck } : {}),
        token: process.env.STUDIO_TOKEN,
        allowedHosts: [...(flags['allow-host'] ?? []), ...(process.env.STUDIO_ALLOW_HOSTS ?? '').split(',')].map((h) => h.trim()).filter(Boolean),
        bundleLimit: flags['bundle-limit'],
      })
      // On a PostgreSQL deployment the kill switches live in the database: read them now and every second,
      // so a switch another instance turns on stops this one within a second or two (no notification needed).
      const { refreshFlags } = await import('../src/store/flags.js')
      await refreshFlags(ws, 0)
      const flagPoll = process.env.STUDIO_DATABASE_URL?.trim() ? setInterval(() => void refreshFlags(ws).catch(() => undefined), 1000).unref() : undefined
      // With an object store, uploads older than a day are swept every hour (src/hosted/uploads.ts).
      const sweep = process.env.STUDIO_S3_BUCKET?.trim() ? setInterval(() => void import('../src/hosted/uploads.js').then((u) => u.sweepUploads()).catch(() => undefined), 3_600_000).unref() : undefined
      const waiting = flags.deck !== undefined && !ws.deckExists(flags.deck) ? waitForDeck(ws, flags.deck) : undefined
      const mail = ws.embedded ? undefined : sendMailWhenDue(ws)
      const { jsonLogs, logLine } = await import('../src/transports/http/log.js')
      // The first SIGTERM or SIGINT drains: requests in flight finish (a begun write is committed and
      // answered) for up to STUDIO_SHUTDOWN_GRACE_MS (25 s), new ones are refused; a second one exits now.
      let stopping = false
      const stop = async (signal: string) => {
        if (stopping) {
          if (jsonLogs()) logLine('warn', 'stopped before the requests in flight finished', { signal })
          else process.stderr.write(`studio serve: a second ${signal}: stopped without waiting for the requests in flight\n`)
          process.exit(1)
        }
        stopping = true
        if (flagPoll) clearInterval(flagPoll)
        if (sweep) clearInterval(sweep)
        waiting?.stop()
        mail?.stop()
        const graceMs = Number(process.env.STUDIO_SHUTDOWN_GRACE_MS ?? 25_000)
        const unfinished = await running.close({ graceMs: Number.isFinite(graceMs) && graceMs >= 0 ? graceMs : 25_000 })
        await (await import('../src/identity/db.js')).closeIdentities()
        await ws.store?.close()
        await keep.releaseKept()
        logLine(unfinished ? 'warn' : 'info', 'stopped', { signal, unfinished })
        process.exit(0)
      }
      process.on('SIGINT', () => void stop('SIGINT'))
      process.on('SIGTERM', () => void stop('SIGTERM'))
      if (flags.ttl) setTimeout(() => void stop('ttl'), flags.ttl * 1000)
      // Announced only once a stop drains: a supervisor that signals as soon as it reads the address finds the handlers in place.
      if (flags.json) process.stdout.write(JSON.stringify({ url: running.url, deck: deck ?? null, root: ws.root }) + '\n')
      else {
        process.stdout.write(`studio serve: ${running.url}  (workspace ${ws.root}${deck ? `, deck ${deck}` : ''})\n`)
        process.stdout.write(`  agents: ${running.url}/llms.txt   MCP: ${running.url}/mcp   OpenAPI: ${running.url}/openapi.json\n`)
      }
      logLine('info', 'listening', { url: running.url, deck: deck ?? null })
      await new Promise(() => undefined)
    } catch (error) {
      const failure = toStudioError(error)
      process.exitCode = failure.exitCode
      if (flags.json) process.stdout.write(JSON.stringify(failure.toJSON()) + '\n')
      // With STUDIO_LOG=json a failed start is a log line too (log.js loads only here, in serve).
      else if (process.env.STUDIO_LOG === 'json') (await import('../src/transports/http/log.js')).logLine('error', 'failed to start', { code: failure.code, message: failure.message })
      else process.stderr.write(`Error (${failure.code}): ${failure.message}\n`)
    }
  }
}
