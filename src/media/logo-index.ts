/**
 * The logo catalogue index: one compact JSON file listing every mark Deck Studio can insert, built
 * offline at build time (scripts/build.ts → dist/logos/index.json) from two installed packages, or
 * rebuilt by `logo.refresh` from a catalogue manifest into the workspace cache. SVG bodies are not in
 * the index: they are read from the packages (or the cache) when a mark is inserted.
 *
 * Sources and how they merge (by slug, the Simple Icons slug: lower case, no separators):
 * - simple-icons (CC0 data): title, slug, brand colour, aliases, guidelines, licence, source. Each
 *   icon is one monochrome path: variant `default` draws it in the brand colour, `mono` in the deck's
 *   ink. Collection `brands`.
 * - @iconify-json/logos (Gil Barbara's SVG Logos, CC0): full-colour drawings. `<name>-icon` is the
 *   symbol and `<name>` the wordmark when both exist; a lone `<name>` is the symbol unless it is at
 *   least 2.5 times as wide as tall (a wordmark); `-dark` files are drawn for a dark ground
 *   (variants `dark`, `wordmarkDark`). Its colour symbol becomes the merged mark's `default`. Marks
 *   only this set holds are collection `community`, except cloud service icons (`aws-*`,
 *   `google-cloud-*`, `azure-*`) and auth badges (sign-in buttons), which only `collection: all` lists.
 *
 * Whether a default "reads" on paper (#ffffff) and on ink (#111111): the drawing is rasterized at
 * 48 px and it reads on a ground when the pixels reaching 2:1 contrast against it (READS_CONTRAST),
 * weighted by opacity, make at least half of what it paints. The same test, against the deck's own
 * paper, drives the appearance rule of logo.insert.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export const VARIANTS = ['default', 'mono', 'light', 'dark', 'wordmark', 'wordmarkLight', 'wordmarkDark'] as const
export type Variant = (typeof VARIANTS)[number]
export const SYMBOL_VARIANTS: readonly Variant[] = ['default', 'mono', 'light', 'dark']
export const WORDMARK_VARIANTS: readonly Variant[] = ['wordmark', 'wordmarkLight', 'wordmarkDark']

/** Collections as stored: 0 brands, 1 community, 2 cloud service icon, 3 auth badge (2 and 3: `all` only). */
export const COLLECTION_NAMES = ['brands', 'community', 'cloud', 'auth'] as const
export type CollectionName = (typeof COLLECTION_NAMES)[number]

/** One mark of the index, with short keys (the file stays small: ~4,800 marks in well under 1 MB). */
export interface IndexMark {
  /** Slug. */
  s: string
  /** Title (the company or product name). */
  t: string
  /** Aliases (other names, old names, localized names), when any. */
  a?: string[]
  /** Categories, when any. */
  k?: string[]
  /** Collection: an index into COLLECTION_NAMES. */
  c: number
  /** Variants: where each body comes from. `S` the Simple Icons path in `h`, `M` the same path in the deck's ink, `@<name>` an SVG Logos icon, `f:<file>` a file of the refresh cache. */
  v: Partial<Record<Variant, string>>
  /** Brand colour (6 hex digits), when recorded. */
  h?: string
  /** Reads bits of the default (else the wordmark): 1 on paper, 2 on ink. */
  r: number
  /** The licence as recorded (an SPDX id, `custom <url>`); absent when the catalogue records none. */
  l?: string
  /** Index into `sentences`: the catalogue's sentence about licences. */
  n: number
  /** Brand guidelines URL. */
  g?: string
  /** Brand site (an origin). */
  w?: string
  /** Prominence for ranking ties: catalogues holding it, wordmark, guidelines. */
  p: number
  /** Variants that answered 404 at the last refresh. */
  u?: Variant[]
  /** A refreshed mark: a digest of its drawings, so a refresh can tell an updated mark. */
  d?: string
}

export interface LogoIndex {
  v: 1
  /** When this index was built (ISO time): the index date. */
  builtAt: string
  /** `packages` (built in) or `manifest` (a refresh). */
  from: 'packages' | 'manifest'
  /** Package versions or the manifest's name. */
  sources: Record<string, string>
  sentences: string[]
  /** The licence of every SVG Logos drawing (`@<name>` variants): the set's, with its sentence. */
  setLicence?: { l: string; n: number }
  marks: IndexMark[]
}

export const PAPER = '#ffffff'
export const INK = '#111111'
/**
 * The contrast a mark needs against its ground to "read". WCAG's 3:1 (1.4.11) is for graphics a
 * reader must make out; a logo only has to stand out as a shape, and at 3:1 GitLab's orange (2.9:1 on
 * white) or Slack's colours would be swapped for a one-colour mark. 2:1 keeps them and still catches
 * what disappears: JavaScript's yellow (1.4:1 on white), black marks on ink (1.1:1).
 */
export const READS_CONTRAST = 2

// ---- colour ------------------------------------------------------------------------------------

const NAMED: Record<string, string> = {
  black: '#000000', white: '#ffffff', red: '#ff0000', green: '#008000', blue: '#0000ff', yellow: '#ffff00', orange: '#ffa500',
  gray: '#808080', grey: '#808080', silver: '#c0c0c0', navy: '#000080', purple: '#800080', teal: '#008080', maroon: '#800000',
  lime: '#00ff00', aqua: '#00ffff', cyan: '#00ffff', fuchsia: '#ff00ff', magenta: '#ff00ff', olive: '#808000', gold: '#ffd700',
}

/** A CSS colour as `#rrggbb`, or null (none, transparent, currentColor, url(), unknown names). */
export function parseColour(value: string | undefined | null): string | null {
  if (!value) return null
  const v = value.trim().toLowerCase()
  let m = /^#([0-9a-f]{3,4})$/.exec(v)
  if (m) return `#${[...m[1].slice(0, 3)].map((c) => c + c).join('')}`
  m = /^#([0-9a-f]{6})(?:[0-9a-f]{2})?$/.exec(v)
  if (m) return `#${m[1]}`
  m = /^rgba?\(\s*([\d.]+)%?[\s,]+([\d.]+)%?[\s,]+([\d.]+)%?/.exec(v)
  if (m) return `#${[m[1], m[2], m[3]].map((n) => Math.max(0, Math.min(255, Math.round(Number(n)))).toString(16).padStart(2, '0')).join('')}`
  return NAMED[v] ?? null
}

/** Relative luminance (WCAG) of `#rrggbb`. */
export function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16)
  const channel = (v: number) => {
    const s = v / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255)
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p)
  return (x + 0.05) / (y + 0.05)
}

/** A ground is light when dark ink reads better on it than white does. */
export const isLightGround = (ground: string) => contrast(ground, '#000000') >= contrast(ground, '#ffffff')

/** A drawing as sharp rasterizes it for the reads test: 48 px on its long side, RGBA. */
export async function coverage(svg: string | Buffer): Promise<Buffer> {
  const sharp = (await import('sharp')).default
  const { data } = await sharp(Buffer.isBuffer(svg) ? svg : Buffer.from(svg), { density: 72, limitInputPixels: 4_000_000 })
    .resize({ width: 48, height: 48, fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return data
}

/**
 * Whether a drawing (RGBA pixels from `coverage`) reads on `ground`: the pixels reaching
 * READS_CONTRAST against it, weighted by their opacity, make at least half of what it paints.
 */
export function readsOnPixels(rgba: Buffer, ground: string): boolean {
  const g = luminance(ground)
  let total = 0
  let reading = 0
  const memo = new Map<number, boolean>()
  for (let i = 0; i < rgba.length; i += 4) {
    const alpha = rgba[i + 3] / 255
    if (alpha < 0.05) continue
    total += alpha
    const key = (rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2]
    let ok = memo.get(key)
    if (ok === undefined) {
      const l = luminance(`#${key.toString(16).padStart(6, '0')}`)
      ok = (Math.max(l, g) + 0.05) / (Math.min(l, g) + 0.05) >= READS_CONTRAST
      memo.set(key, ok)
    }
    if (ok) reading += alpha
  }
  return total > 0 && reading >= total / 2
}

/** The reads bits (1 paper, 2 ink) of a one-colour drawing. */
export const readsBitsOfColour = (hex: string) => (contrast(hex, PAPER) >= READS_CONTRAST ? 1 : 0) | (contrast(hex, INK) >= READS_CONTRAST ? 2 : 0)

/** The reads bits (1 paper, 2 ink) of an SVG drawing. */
export async function readsBitsOfSvg(svg: string | Buffer): Promise<number> {
  try {
    const rgba = await coverage(svg)
    return (readsOnPixels(rgba, PAPER) ? 1 : 0) | (readsOnPixels(rgba, INK) ? 2 : 0)
  } catch {
    return 0
  }
}

// ---- the packages ------------------------------------------------------------------------------

const load = createRequire(import.meta.url)

export interface SimpleIcon {
  title: string
  slug: string
  hex: string
  source: string
  guidelines?: string
  license?: { type: string; url?: string }
  aliases?: { aka?: string[]; dup?: { title: string }[]; loc?: Record<string, string>; old?: string[] }
}

export interface IconifySet {
  prefix: string
  icons: Record<string, { body: string; width?: number; height?: number; left?: number; top?: number; hidden?: boolean }>
  aliases?: Record<string, { parent: string }>
  width?: number
  height?: number
  lastModified?: number
}

let iconify: IconifySet | undefined
/** The SVG Logos set (8 MB of JSON, parsed on first use). */
export function iconifySet(): IconifySet {
  return (iconify ??= JSON.parse(readFileSync(load.resolve('@iconify-json/logos/icons.json'), 'utf8')) as IconifySet)
}

export function simpleIconsData(): SimpleIcon[] {
  const data = JSON.parse(readFileSync(load.resolve('simple-icons/icons.json'), 'utf8')) as SimpleIcon[] | { icons: SimpleIcon[] }
  return Array.isArray(data) ? data : data.icons
}

/** The Simple Icons drawing of a slug, as the package ships it. */
export function simpleIconSvg(slug: string): string {
  if (!/^[a-z0-9_]+$/.test(slug)) throw new Error(`not a Simple Icons slug: ${slug}`)
  return readFileSync(load.resolve(`simple-icons/icons/${slug}.svg`), 'utf8')
}

/** An SVG Logos icon as a standalone SVG document (its viewBox from the icon's box, 256 × 256 by default). */
export function iconifySvg(name: string, set: IconifySet = iconifySet()): string | null {
  const icon = set.icons[name] ?? (set.aliases?.[name] ? set.icons[set.aliases[name].parent] : undefined)
  if (!icon) return null
  const w = icon.width ?? set.width ?? 16
  const h = icon.height ?? set.height ?? 16
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="${icon.left ?? 0} ${icon.top ?? 0} ${w} ${h}" width="${w}" height="${h}">${icon.body}</svg>`
}

/** A package's version, from the package.json beside one of its exported files (simple-icons does not export its package.json). */
function packageVersion(name: string, exported: string): string {
  let dir = dirname(load.resolve(`${name}/${exported}`))
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version
}

/** Hosts that publish other people's files: a source URL there says nothing about the brand's own site. */
const THIRD_PARTY_HOSTS = /(^|\.)(github\.com|githubusercontent\.com|github\.io|gitlab\.com|bitbucket\.org|figma\.com|wikimedia\.org|wikipedia\.org|google\.com|googleusercontent\.com|dropbox\.com|behance\.net|dribbble\.com|twitter\.com|x\.com|facebook\.com|youtube\.com|linkedin\.com|medium\.com|npmjs\.com|apple\.com|archive\.org|imgur\.com|codepen\.io|sourceforge\.net|amazonaws\.com|cloudfront\.net|simpleicons\.org|iconify\.design|svgporn\.com|brandfetch\.com|seeklogo\.com|worldvectorlogo\.com|wikidata\.org|notion\.site|canva\.com|frontify\.com|bynder\.com|box\.com|issuu\.com|slideshare\.net)$/

/** Addresses of the catalogues themselves: never written into an asset's record. */
export const CATALOGUE_ADDRESS = /simpleicons\.org|simple-icons|iconify\.design|iconify\/|gilbarbara\/logos|svgporn\.com|api\.iconify/i

/**
 * The brand's site as an origin: the first of `urls` on the brand's own host (not a code host, file
 * share or social network, unless that host is the brand: GitHub's site is github.com).
 */
export function brandSite(slug: string, urls: (string | undefined)[]): string | undefined {
  const parsed: URL[] = []
  for (const raw of urls) {
    if (!raw) continue
    try {
      const url = new URL(raw)
      if ((url.protocol === 'https:' || url.protocol === 'http:') && !CATALOGUE_ADDRESS.test(url.href)) parsed.push(url)
    } catch {
      // not a URL: no site from it
    }
  }
  // A host naming the brand first (about.google for Google), then any host that is not a third party's.
  const named = parsed.find((url) => url.hostname.toLowerCase().split('.').includes(slug))
  if (named) return named.origin
  return parsed.find((url) => !THIRD_PARTY_HOSTS.test(url.hostname.toLowerCase()))?.origin
}

const SENTENCES = {
  si: 'Simple Icons is released under CC0 - though that doesn\'t mean to imply that all icons within the project are also CC0. Please see individual licenses where available.',
  siNone: 'The absence of license data for a particular icon does not imply that the icon is not released under a license.',
  ic: 'SVG Logos (Gil Barbara) is released under CC0-1.0; the marks in it remain the trademarks of their owners.',
}

const CLOUD = /^(aws|google-cloud|azure)-./
const AUTH = /(^|-)(badge|sign-?in|signin|login|log-in)(-|$)/

/** The words of an SVG Logos name as a title: `google-cloud-run` → "Google Cloud Run". */
function titleOf(name: string): string {
  const SMALL = new Set(['aws', 'ai', 'api', 'ci', 'cd', 'css', 'html', 'io', 'js', 'sdk', 'sql', 'ui', 'ux', 'vpc', 'iam', 'kms', 'sns', 'sqs', 'ses', 'rds', 'ec2', 'ecs', 'eks', 'elb', 'mq', 'msk', 'waf', 'gcp', 'ibm', 'amd', 'hp', 'php', 'npm', 'tv'])
  return name
    .split('-')
    .map((w) => (SMALL.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ')
}

interface Parsed {
  base: string
  variant: Variant
}

/** What an SVG Logos file is: its base name and the variant it draws. */
function parseIconifyName(name: string, names: Set<string>, set: IconifySet): Parsed {
  if (name.endsWith('-icon-dark')) return { base: name.slice(0, -10), variant: 'dark' }
  if (name.endsWith('-dark')) {
    const base = name.slice(0, -5)
    return { base, variant: names.has(`${base}-icon`) ? 'wordmarkDark' : 'dark' }
  }
  if (name.endsWith('-icon')) return { base: name.slice(0, -5), variant: 'default' }
  if (names.has(`${name}-icon`)) return { base: name, variant: 'wordmark' }
  const icon = set.icons[name]
  const wide = (icon.width ?? set.width ?? 16) / (icon.height ?? set.height ?? 16) >= 2.5
  return { base: name, variant: wide ? 'wordmark' : 'default' }
}

/** The slug a name merges under: Simple Icons spelling (lower case, no separators). */
export const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9_]/g, '')

/**
 * Builds the index from the installed packages. `builtAt` defaults to now. Deterministic for given
 * packages and date: marks sorted by slug, keys in a fixed order.
 */
export async function buildPackageIndex(options: { builtAt?: string } = {}): Promise<LogoIndex> {
  const sentences = [SENTENCES.si, SENTENCES.siNone, SENTENCES.ic]
  const marks = new Map<string, IndexMark>()
  for (const icon of simpleIconsData()) {
    const aliases = new Set<string>()
    for (const a of icon.aliases?.aka ?? []) aliases.add(a)
    for (const d of icon.aliases?.dup ?? []) aliases.add(d.title)
    for (const l of Object.values(icon.aliases?.loc ?? {})) aliases.add(l)
    for (const o of icon.aliases?.old ?? []) aliases.add(o)
    aliases.delete(icon.title)
    const licence = icon.license ? (icon.license.type === 'custom' && icon.license.url ? `custom ${icon.license.url}` : icon.license.type) : undefined
    const hex = `#${icon.hex.toLowerCase()}`
    const guidelines = icon.guidelines && !CATALOGUE_ADDRESS.test(icon.guidelines) ? icon.guidelines : undefined
    const site = brandSite(icon.slug, [icon.source, icon.guidelines])
    marks.set(icon.slug, {
      s: icon.slug,
      t: icon.title,
      ...(aliases.size ? { a: [...aliases] } : {}),
      c: 0,
      v: { default: 'S', mono: 'M' },
      h: icon.hex.toLowerCase(),
      r: readsBitsOfColour(hex),
      ...(licence ? { l: licence } : {}),
      n: licence ? 0 : 1,
      ...(guidelines ? { g: guidelines } : {}),
      ...(site ? { w: site } : {}),
      p: 1 + (guidelines ? 1 : 0),
    })
  }
  const set = iconifySet()
  const names = new Set(Object.keys(set.icons).filter((n) => !set.icons[n].hidden))
  const fromIconify = new Set<string>()
  for (const name of [...names].sort()) {
    const { base, variant } = parseIconifyName(name, names, set)
    const slug = slugOf(base)
    let mark = marks.get(slug)
    if (!mark) {
      const cloud = CLOUD.test(base)
      const auth = AUTH.test(base)
      mark = { s: slug, t: titleOf(base), c: cloud ? 2 : auth ? 3 : 1, v: {}, r: 0, l: 'CC0-1.0', n: 2, p: 0 }
      if (base !== slug) mark.a = [base]
      if (cloud) mark.k = ['cloud', base.split('-')[0] === 'google' ? 'google cloud' : base.split('-')[0]]
      if (auth) mark.k = ['auth', 'sign-in']
      marks.set(slug, mark)
    } else if (base !== slug && !(mark.a ?? []).includes(base)) mark.a = [...(mark.a ?? []), base]
    if (!fromIconify.has(slug)) {
      fromIconify.add(slug)
      mark.p += 1
    }
    // The colour drawing wins the merged mark's default; the Simple Icons path stays as mono.
    if (variant === 'default' || !mark.v[variant] || mark.v[variant] === 'S') mark.v[variant] = `@${name}`
  }
  for (const [alias, { parent }] of Object.entries(set.aliases ?? {})) {
    if (!names.has(parent)) continue
    const mark = marks.get(slugOf(parseIconifyName(parent, names, set).base))
    if (mark && !(mark.a ?? []).includes(alias)) mark.a = [...(mark.a ?? []), alias]
  }
  const drawn: IndexMark[] = []
  for (const mark of marks.values()) {
    if (mark.v.wordmark) mark.p += 1
    if ((mark.v.default ?? mark.v.wordmark)?.startsWith('@')) drawn.push(mark)
  }
  // Rasterizing ~2,000 drawings takes a few seconds: four at a time (sharp runs them on its own threads).
  await Promise.all(
    [0, 1, 2, 3].map(async () => {
      for (let mark = drawn.pop(); mark; mark = drawn.pop()) mark.r = await readsBitsOfSvg(iconifySvg((mark.v.default ?? mark.v.wordmark)!.slice(1), set) ?? '')
    }),
  )
  const ordered = [...marks.values()].sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0)).map(canonicalMark)
  return {
    v: 1,
    builtAt: options.builtAt ?? new Date().toISOString(),
    from: 'packages',
    sources: { 'simple-icons': packageVersion('simple-icons', 'icons.json'), '@iconify-json/logos': packageVersion('@iconify-json/logos', 'icons.json') },
    sentences,
    setLicence: { l: 'CC0-1.0', n: 2 },
    marks: ordered,
  }
}

/** A mark with its keys in one order and its variants in VARIANTS order. */
export function canonicalMark(mark: IndexMark): IndexMark {
  const v: Partial<Record<Variant, string>> = {}
  for (const name of VARIANTS) if (mark.v[name]) v[name] = mark.v[name]
  const out: IndexMark = { s: mark.s, t: mark.t } as IndexMark
  if (mark.a?.length) out.a = mark.a
  if (mark.k?.length) out.k = mark.k
  out.c = mark.c
  out.v = v
  if (mark.h) out.h = mark.h
  out.r = mark.r
  if (mark.l) out.l = mark.l
  out.n = mark.n
  if (mark.g) out.g = mark.g
  if (mark.w) out.w = mark.w
  out.p = mark.p
  if (mark.u?.length) out.u = mark.u
  if (mark.d) out.d = mark.d
  return out
}
