/**
 * The page's side of `studio serve`: the editor's HTML, script and style (built by scripts/build.ts
 * into dist/page/, never from a CDN), what its sheets load (fonts, deck assets, two-tone variants),
 * the renderer's view of slides, and the window transport.
 *
 * Window transport: `POST /api/window/<actionId>` with the action's input as the body is dispatched
 * exactly like `POST /api/actions/<id>` (same edge, same errors, same 409 with the current document)
 * with transport 'P' and the tab's `X-Studio-Client` id handed to the engine (`ctx.clientId`). A call
 * that names no author is the person at this machine: git's user.name of the workspace, as on the CLI.
 *
 * Tokens: off loopback the page's own files (the HTML, app.js, app.css and the catalogue's fonts) hold
 * nothing of any deck and are served without a token, so a browser can open `/?token=...`; every
 * route that reads or writes a deck needs the bearer, which the page sends from sessionStorage.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { basename, extname, join, relative, resolve, sep } from 'node:path'
import { findAction } from '../../actions/index.js'
import { defineAction, type ActionContext } from '../../core/action.js'
import { dispatch } from '../../core/engine.js'
import type { Caller } from '../../identity/caller.js'
import { takeCookies } from '../../identity/account.js'
import { fail } from '../../core/errors.js'
import { arr, bool, int, obj, oneOf, openObj, opt, SlideId, str } from '../../model/schema.js'
import { orderedSlides, type DeckDoc } from '../../model/deck.js'
import { packageRoot, type Workspace } from '../../store/workspace.js'
import { readInsideSync } from '../../store/safe-open.js'
import { ASSET_MIME } from '../../render/mime.js'
import { identityExists } from '../../identity/db.js'
import { BODY_LIMIT, pathSegment, readBody } from './edge.js'
import { noteRequest } from './log.js'
import type { Assistant } from '../../core/action.js'

const DECK_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const SLIDE_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/
/** A tab's id: 12 lowercase base36 characters. */
export const CLIENT_RE = /^[a-z0-9]{12}$/

const MIME: Record<string, string> = {
  ...ASSET_MIME,
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * The page's content security policy: its own script and style only, pictures and fonts from this
 * server (and blob: URLs the page makes of pictures it fetched with a token), fetches and the room's
 * WebSocket to this server. Style attributes are allowed: the renderer positions every block with one.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/** Paths served to a browser without a token: the page's own files, which hold no deck. */
export function isPublicPagePath(path: string): boolean {
  return path === '/' || path === '/index.html' || path === '/signin' || /^\/d\/[^/]+(\/[^/]+)?\/?$/.test(path) || ['/page/app.js', '/page/app.css', '/page/app.js.map'].includes(path) || /^\/page\/fonts\/[^/]+$/.test(path)
}

/** The methods a page path answers; undefined for a path the page does not serve. */
export function pageMethods(path: string): string[] | undefined {
  if (/^\/api\/window\/[^/]+$/.test(path)) return ['POST']
  if (isPublicPagePath(path) || path.startsWith('/page/')) return ['GET', 'HEAD']
  return undefined
}

function pageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Deck Studio</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/page/app.css">
<script type="module" src="/page/app.js"></script>
</head>
<body>
<div id="app"><p class="boot">Loading the editor…</p></div>
<noscript>The editor needs JavaScript. Every action is also on the command line (studio actions) and at /llms.txt.</noscript>
</body>
</html>
`
}

/** The page bundle's folder (dist/page in the package). */
function distPage(): string {
  return join(packageRoot(), 'dist', 'page')
}

export interface PageContext {
  ws: Workspace
  /** The deck a call names when it names none. */
  defaultDeck?: string
  /** The deck `/` opens (`studio serve --deck X`); the deck list without it. */
  openDeck?: string
  send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void
  /** A language model a connected MCP client offers (sampling), for assist.propose. */
  assistant?: (deckId: string | undefined) => Assistant | undefined
  /** Who the request is, where the studio has accounts (src/identity/auth.ts). */
  caller?: Caller
}

/** Internal read behind GET /page/view: the renderer's HTML of slides with every block's box. */
const viewAction = defineAction({
  id: 'page.view',
  label: 'Slide views for the page',
  doc: 'GET /page/view: the renderer\'s HTML of slides and where geometry drew each block, for the editor.',
  group: 'render',
  milestone: 'M7',
  mutates: false,
  transports: 'P',
  input: obj({
    slideIds: opt(arr(SlideId)),
    limit: opt(int({ minimum: 1 })),
    appearance: opt(oneOf(['light', 'dark'])),
    cover: opt(bool({ description: 'The deck\'s cover for the deck list: its first slide the slideshow shows.' })),
    revision: opt(int({ minimum: 0, description: 'With cover: the revision the caller knows, answered from the cache without reading the deck.' })),
    fontKey: opt(str({ maxLength: 64, description: 'The `fontKey` of the font rules the caller holds: when they are still the deck\'s, `fontCss` is left out.' })),
  }),
  output: openObj('Slide views.'),
  cli: null,
  mcp: null,
  example: {},
  run: async (ctx: ActionContext, input: { slideIds?: string[]; limit?: number; appearance?: 'light' | 'dark'; cover?: boolean; revision?: number; fontKey?: string }) => {
    const coverKey = input.cover ? `${ctx.ws.root}\u0000${await ctx.deckId()}\u0000${input.appearance ?? ''}` : undefined
    const known = coverKey ? covers.get(coverKey) : undefined
    if (known && input.revision === known.revision) return known.view
    const doc = await ctx.target()
    const id = doc.manifest.id
    if (known && known.stamp === coverStamp(doc)) return known.view
    const { slideViews, viewFontCss, SHEET_CSS, SHEET } = await import('../../render/view.js')
    const { readAssetRecords } = await import('../../store/asset-records.js')
    const slides = input.slideIds
      ? input.slideIds.map((slideId, i) => {
          if (!Object.hasOwn(doc.slides, slideId)) fail('not_found', `No slide "${slideId}" in deck "${id}".`, { pointer: `/slideIds/${i}` })
          return doc.slides[slideId]
        })
      : input.cover
        ? coverSlides(doc)
        : orderedSlides(doc).slice(0, input.limit)
    const appearance = input.appearance ?? doc.manifest.defaults?.appearance ?? 'light'
    const variants = variantsOf(ctx.ws, doc)
    const views = slideViews(doc, slides, {
      deckDir: ctx.ws.deckDir(id),
      root: ctx.ws.root,
      appearance,
      assetBase: `/page/asset/${id}`,
      variantBase: `/page/variant/${id}`,
      variants: await variants,
      records: await readAssetRecords(ctx.ws, id),
    })
    // The font rules (every face and subset of the theme and the fallbacks, ~300 KB) once per page: a
    // batch asked for with the key of the rules the page holds comes without them.
    const fontCss = viewFontCss(doc, '/page/fonts')
    const fontKey = createHash('sha256').update(fontCss).digest('hex').slice(0, 16)
    const fonts = !coverKey && input.fontKey === fontKey ? {} : { fontCss }
    const view = { deck: id, revision: doc.manifest.revision, appearance, sheet: SHEET, sheetCss: SHEET_CSS, fontKey, ...fonts, slides: views }
    if (coverKey) {
      if (covers.size >= MAX_COVERS) covers.delete(covers.keys().next().value!)
      covers.set(coverKey, { revision: doc.manifest.revision, stamp: coverStamp(doc), view })
    }
    return view
  },
})

/**
 * Deck covers drawn for the deck list, by workspace, deck and appearance: a list of many decks draws
 * each cover once per revision (and, asked with the revision it knows, without reading the deck).
 */
const covers = new Map<string, { revision: number; stamp: string; view: unknown }>()
const MAX_COVERS = 256
/** A deck's cover: its first slide the slideshow shows (the first slide when every one is skipped). */
function coverSlides(doc: DeckDoc) {
  const slides = orderedSlides(doc)
  const first = slides.find((s) => s.skip !== true) ?? slides[0]
  return first ? [first] : []
}
/** What a cover is drawn from: the manifest (revision, theme, brand kit...) and the cover slide. */
function coverStamp(doc: DeckDoc): string {
  return JSON.stringify([doc.manifest, coverSlides(doc)[0] ?? null])
}

/** One Variants table per deck, so a variant named in a view can be drawn when the page asks for it. */
const variantTables = new Map<string, { key: string; table: import('../../render/variants.js').Variants }>()
async function variantsOf(ws: Workspace, doc: DeckDoc) {
  const { Variants } = await import('../../render/variants.js')
  const key = `${ws.root}\u0000${doc.manifest.id}`
  const palette = JSON.stringify([doc.manifest.theme, doc.manifest.brandKit?.palette ?? null])
  const hit = variantTables.get(key)
  if (hit && hit.key === palette) return hit.table
  const table = new Variants(ws.deckDir(doc.manifest.id), doc.manifest, ws.root)
  if (variantTables.size > 32) variantTables.clear()
  variantTables.set(key, { key: palette, table })
  return table
}

/** The model data the page builds its inspector and layout menu from: block schemas, layouts and their slot boxes. */
async function modelData() {
  const { BLOCK_SCHEMAS, LIST_PRESETS, MASKS } = await import('../../model/blocks.js')
  const { LAYOUTS, SLOTS, SHEET } = await import('../../model/layouts.js')
  const { layoutSlots, FIELD_SLOTS } = await import('../../layout/boxes.js')
  const layouts = LAYOUTS.map((id) => ({ id, slots: Object.fromEntries(Object.entries(layoutSlots(id)).map(([slot, spec]) => [slot, spec.box])), fieldSlots: FIELD_SLOTS[id] ?? {} }))
  return { sheet: SHEET, blockSchemas: BLOCK_SCHEMAS, layouts, slots: SLOTS, listPresets: LIST_PRESETS, masks: MASKS }
}
let modelCache: Promise<unknown> | undefined

let identity: Promise<{ name?: string; email?: string }> | undefined
/** The person at this machine: git's user.name and user.email of the workspace, read once, for the page's commits. */
function localIdentity(ws: Workspace): Promise<{ name?: string; email?: string }> {
  identity ??= ws.git.identity().catch(() => ({}))
  return identity
}

function deckParam(url: URL, fallback: string | undefined): string | undefined {
  const deck = url.searchParams.get('deck') ?? fallback
  if (deck !== undefined && deck !== null && !DECK_RE.test(deck)) fail('invalid_input', `Query deck "${deck}" is not a deck id.`, { pointer: '/deck' })
  return deck ?? undefined
}

function sendFile(res: ServerResponse, file: string, headers: Record<string, string> = {}, body: Buffer = readFileSync(file)): void {
  res.writeHead(200, { 'content-type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream', 'content-length': String(body.length), ...headers })
  res.end(body)
}

/**
 * The bytes of a regular file of the workspace reached through no symbolic link (src/store/safe-open.ts);
 * undefined for a missing file, a folder or a link, which a page route answers 404 alike.
 */
function workspaceFile(ws: Workspace, file: string): Buffer | undefined {
  try {
    return readInsideSync(ws.root, file)
  } catch {
    return undefined
  }
}

/** A file name inside one folder: no separators, no dot names. */
function plainName(name: string): boolean {
  return Boolean(name) && !name.includes('/') && !name.includes('\\') && !name.includes('\u0000') && name !== '.' && name !== '..'
}

/**
 * Answers a page route; false when the path is not the page's. Runs after the edge has checked
 * Host, Origin and (outside `isPublicPagePath`) the bearer.
 */
export async function handlePage(req: IncomingMessage, res: ServerResponse, url: URL, method: string, page: PageContext): Promise<boolean> {
  const path = url.pathname
  if (method === 'GET' && isPublicPagePath(path) && !path.startsWith('/page/')) {
    res.setHeader('content-security-policy', PAGE_CSP)
    page.send(res, 200, pageHtml(), { 'content-type': 'text/html; charset=utf-8' })
    return true
  }
  if (method === 'GET' && ['/page/app.js', '/page/app.css', '/page/app.js.map'].includes(path)) {
    const file = join(distPage(), basename(path))
    if (!existsSync(file)) fail('not_found', `The page is not built (${file} is missing): run npm run build.`)
    sendFile(res, file, { 'cache-control': 'no-cache' })
    return true
  }
  const font = /^\/page\/fonts\/([^/]+)$/.exec(path)
  if (method === 'GET' && font) {
    const { fontFileOf } = await import('../../render/faces.js')
    const file = fontFileOf(pathSegment(font[1]))
    if (!file) fail('not_found', `No font "${font[1]}" in the catalogue.`)
    sendFile(res, file, { 'cache-control': 'public, max-age=86400' })
    return true
  }
  if (method === 'GET' && path === '/page/start') {
    // What `/` opens: the deck `studio serve --deck X` names (behind the token, unlike the page's own files), else the list.
    // accounts: whether the page signs people in and asks what they may do (an identity database exists).
    page.send(res, 200, { deck: page.openDeck ?? null, accounts: identityExists(page.ws) })
    return true
  }
  if (method === 'GET' && path === '/page/model.json') {
    page.send(res, 200, await (modelCache ??= modelData()))
    return true
  }
  if (method === 'GET' && path === '/page/view') {
    const deck = deckParam(url, page.defaultDeck)
    const slides = url.searchParams.get('slides')
    const appearance = url.searchParams.get('appearance')
    const limit = url.searchParams.get('limit')
    const input: Record<string, unknown> = {}
    if (slides) input.slideIds = slides.split(',').filter(Boolean)
    if (limit) input.limit = /^\d+$/.test(limit) ? Number(limit) : limit
    if (appearance) input.appearance = appearance
    if (url.searchParams.get('cover') === '1') input.cover = true
    const known = url.searchParams.get('revision')
    if (known) input.revision = /^\d+$/.test(known) ? Number(known) : known
    const fontKey = url.searchParams.get('fontKey')
    if (fontKey) input.fontKey = fontKey
    const { result } = await dispatch(viewAction, input, { ws: page.ws, transport: 'P', deck, caller: page.caller })
    page.send(res, 200, result)
    return true
  }
  const asset = /^\/page\/asset\/([^/]+)\/([^/]+)$/.exec(path)
  if (method === 'GET' && asset) {
    const deck = pathSegment(asset[1])
    const name = pathSegment(asset[2])
    // With accounts a deck's pictures are the deck's: the read capability, the one 403 sentence without it.
    if (page.caller && DECK_RE.test(deck)) await (await import('../../identity/roles.js')).checkAccess(page.ws, { id: 'page.asset', capability: 'read' }, page.caller, deck)
    if (!DECK_RE.test(deck) || !page.ws.deckExists(deck) || !plainName(name)) fail('not_found', `No asset file ${path}.`)
    const file = join(page.ws.deckDir(deck), 'assets', name)
    if (!MIME[extname(file).toLowerCase()]?.startsWith('image/')) fail('not_found', `No asset file ${path}.`)
    const body = workspaceFile(page.ws, file)
    if (!body) fail('not_found', `No asset file ${path}.`)
    // An SVG is served as a picture only: no script runs in an <img>, and this header keeps it so if opened directly.
    sendFile(res, file, { 'cache-control': 'no-cache', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" }, body)
    return true
  }
  const variant = /^\/page\/variant\/([^/]+)\/([a-z0-9]+)$/.exec(path)
  if (method === 'GET' && variant) {
    const table = variantTables.get(`${page.ws.root}\u0000${variant[1]}`)?.table
    const bytes = table ? await table.bytes(variant[2], 2).catch(() => undefined) : undefined
    if (!bytes) fail('not_found', `No variant ${variant[2]}: open the slide's view first.`)
    page.send(res, 200, bytes, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' })
    return true
  }
  if (method === 'GET' && path === '/page/file') {
    // Files an export, build or render wrote for the page to download: only under .studio/.
    const rel = url.searchParams.get('path') ?? ''
    // Judged as written (no link is followed on the way, so where it is written is where it is).
    const file = resolve(page.ws.root, rel)
    const shown = relative(page.ws.root, file).split(sep).join('/')
    const body = rel && /^\.studio\/(export|build|render|diff)\//.test(shown) ? workspaceFile(page.ws, file) : undefined
    if (!body) fail('not_found', `No exported file "${rel}".`)
    // With accounts a file is its deck's: the download capability on the deck it belongs to.
    if (page.caller) await (await import('../../identity/roles.js')).checkAccess(page.ws, { id: 'page.file', capability: 'download' }, page.caller, await fileDeck(page.ws, shown))
    sendFile(res, file, { 'content-disposition': `attachment; filename="${basename(file).replace(/[^A-Za-z0-9._-]/g, '_')}"`, 'cache-control': 'no-store' }, body)
    return true
  }
  const window = /^\/api\/window\/([^/]+)$/.exec(path)
  if (window && method === 'POST') {
    const action = findAction(pathSegment(window[1]))
    if (!action || !action.transportSet.has('P')) fail('not_found', `No action "${window[1]}" on the page.`)
    noteRequest(req, { action: action.id })
    const client = req.headers['x-studio-client']
    if (client !== undefined && (typeof client !== 'string' || !CLIENT_RE.test(client))) {
      fail('invalid_input', 'X-Studio-Client must be the tab\'s id: 12 lowercase base36 characters.', { path: 'x-studio-client' })
    }
    const raw = await readBody(req, BODY_LIMIT)
    let input: unknown = {}
    if (raw.length) {
      try {
        input = JSON.parse(raw.toString('utf8'))
      } catch (error) {
        fail('invalid_input', `The body is not valid JSON: ${(error as Error).message}`)
      }
    }
    if (!input || typeof input !== 'object' || Array.isArray(input)) fail('invalid_input', 'The body must be a JSON object holding the action input.')
    const deck = deckParam(url, page.defaultDeck)
    const named = (req.headers['x-studio-author'] as string | undefined) ?? url.searchParams.get('author') ?? undefined
    // Reads too: what some answer depends on who asks (comment.list forMe). The identity is read once.
    // With accounts a signed-in caller writes as themselves (the engine reads their name); not as this machine's git identity.
    const local = named === undefined && !page.caller?.principalId ? await localIdentity(page.ws) : {}
    const author = named ?? local.name ?? (page.caller?.principalId ? undefined : 'page')
    const forceQuery = url.searchParams.get('force')
    const force = req.headers['x-studio-force'] === '1' || forceQuery === '' || forceQuery === 'true' || forceQuery === '1'
    const { result } = await dispatch(action, input as Record<string, unknown>, {
      ws: page.ws,
      transport: 'P',
      deck,
      author,
      ...(named === undefined && local.name && local.email ? { email: local.email } : {}),
      force,
      ...(typeof client === 'string' ? { clientId: client } : {}),
      caller: page.caller,
      assistant: () => page.assistant?.(deck),
    })
    const cookies = takeCookies(page.caller)
    if (cookies.length) res.setHeader('set-cookie', cookies)
    page.send(res, 200, result ?? null)
    return true
  }
  return false
}

/** The page's internal reads, whose input validators the build precompiles like the table's. */
export const PAGE_ACTIONS = [viewAction]

/**
 * The deck a file under .studio/ belongs to: `.studio/render/<deckId>/…`, else the longest deck id
 * the file's name begins with (`<deckId>-light.pptx`, `<deckId>.md`); undefined when none does (with
 * accounts such a file is refused, as a deck the caller has no role on).
 */
async function fileDeck(ws: Workspace, shown: string): Promise<string | undefined> {
  const parts = shown.split('/')
  if (parts[1] === 'render' && parts.length > 3 && DECK_RE.test(parts[2])) return parts[2]
  const name = parts[parts.length - 1]
  let best: string | undefined
  for (const id of await ws.deckIds()) {
    if ((name === id || name.startsWith(`${id}-`) || name.startsWith(`${id}.`)) && id.length > (best?.length ?? 0)) best = id
  }
  return best
}
