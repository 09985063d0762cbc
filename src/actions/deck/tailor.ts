import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { defineAction, type CliParsed } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { orderedSlides, type DeckDoc, type Slide, cloneDoc } from '../../model/deck.js'
import { arr, bool, BR, int, obj, opt, ref, SlideId, SLUG, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { replaceAll, replaceAllPlain, slideTexts } from '../../model/text.js'
import { own } from '../../model/own.js'
import { given, without } from '../block/cli.js'
import { readAssetRecords } from '../../store/asset-records.js'
import { WITH_BODY_SLIDE } from '../given.js'

interface Replacement {
  from: string
  to: string
}

interface TailorInput {
  replacements?: Replacement[]
  logo?: { assetId: string; replaceAlt?: string }
  skip?: string[]
  baseRevision: number
}

/** Applies one replacement to every Text of a slide, its chart labels and its notes; returns the count. */
function replaceInSlide(slide: Slide, { from, to }: Replacement): number {
  let count = 0
  const plain = (value: unknown): unknown => {
    if (typeof value !== 'string') return value
    const r = replaceAllPlain(value, from, to, false)
    count += r.count
    return r.text
  }
  for (const site of slideTexts(slide)) {
    const r = replaceAll(site.value, from, to, false, `/slides/${slide.id}${site.pointer}`)
    if (r.count) site.set(r.text)
    count += r.count
  }
  if (typeof slide.notes === 'string') slide.notes = plain(slide.notes) as string
  for (const block of slide.blocks ?? []) {
    if (block.kind !== 'chart') continue
    const data = block.data as { categories?: unknown[]; series?: { name?: unknown }[] } | undefined
    if (Array.isArray(data?.categories)) data.categories = data.categories.map(plain)
    for (const series of data?.series ?? []) series.name = plain(series.name)
  }
  return count
}

/** Whether an asset id names something in the deck's assets/ folder (its record or its file). */
function assetExists(deckDir: string, assetId: string): boolean {
  const dir = join(deckDir, 'assets')
  if (!existsSync(dir)) return false
  return readdirSync(dir).some((name) => name === `${assetId}.json` || name.startsWith(`${assetId}.`) || name.startsWith(`${assetId}@`))
}

/** `--replace Acme=Globex` (repeatable), `--logo <assetId> --logo-alt <text>`: the input's members. */
function tailorCliInput(parsed: CliParsed): Record<string, unknown> {
  const input = without(parsed.input, ['logo', 'logoAlt', 'logo-alt', 'replace', 'from', 'to'])
  if (parsed.input.logo && typeof parsed.input.logo === 'object') input.logo = parsed.input.logo
  const raw = parsed.flags.replace
  const pairs = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String)
  if (pairs.length) {
    input.replacements = pairs.map((pair, i) => {
      const at = pair.indexOf('=')
      if (at <= 0) fail('invalid_input', `--replace takes <from>=<to>; got "${pair}".`, { pointer: `/replacements/${i}` })
      return { from: pair.slice(0, at), to: pair.slice(at + 1) }
    })
  }
  const assetId = parsed.flags.logo
  const replaceAlt = given(parsed, 'logo-alt')
  if (assetId !== undefined || replaceAlt !== undefined) {
    input.logo = {
      ...(typeof input.logo === 'object' ? (input.logo as object) : {}),
      ...(assetId !== undefined ? { assetId: String(assetId) } : {}),
      ...(replaceAlt !== undefined ? { replaceAlt: String(replaceAlt) } : {}),
    }
  }
  return input
}

interface TailorResult {
  counts: { replacements: number; logos: number; skipped: number; slides: number }
  replacements: (Replacement & { count: number })[]
  changed: string[]
  brandKit: boolean
  slides: Slide[]
  revision: number
}

export const deckTailor = defineAction({
  id: 'deck.tailor',
  label: 'Tailor a deck for a customer',
  doc:
    'Case-insensitive find and replace over every visible text (title-slide fields, block texts, list items, table cells, captions, chart labels, the brand kit\'s footer text), the notes and the brand kit\'s name, ' +
    'swaps pictures whose asset alt text names the old customer (logo.replaceAlt, else the first replacement\'s `from`) for one logo asset, the brand kit\'s logo and footer logo included, ' +
    'and skips the named slides, in one write. Every step is checked before anything changes (a stored Text the markup reader refuses stops it with 400 naming that Text; ' +
    'deck.lint reports such Texts); a slide another author leased is refused unless forced. Result: counts per step and the slides that changed.',
  group: 'deck',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    replacements: opt(arr(obj({ from: str({ minLength: 1 }), to: str() }), { description: 'Find and replace pairs, applied in order, case-insensitively.' })),
    logo: opt(
      obj(
        {
          assetId: str({ pattern: SLUG, maxLength: 120, description: 'The asset the swapped pictures show.' }),
          replaceAlt: opt(str({ minLength: 1, description: "Alt text naming the pictures to swap; the first replacement's from when absent." })),
        },
        { description: 'Swap the old customer\'s logo pictures for this asset.' },
      ),
    ),
    skip: opt(arr(SlideId, { description: 'Slides to skip.' })),
    baseRevision: BR,
  }),
  output: written({
    counts: obj(
      { replacements: int({ minimum: 0 }), logos: int({ minimum: 0 }), skipped: int({ minimum: 0 }), slides: int({ minimum: 0 }) },
      { description: 'Replacements made, logos swapped, slides newly skipped, slides changed.' },
    ),
    replacements: arr(obj({ from: str(), to: str(), count: int({ minimum: 0 }) }), { description: 'Each pair with its count.' }),
    changed: arr(SlideId, { description: 'Slide ids that changed, in deck order.' }),
    brandKit: bool({ description: "true when the brand kit changed: its name or footer text (drawn on every slide that shows the footer), or a logo slot swapped." }),
    slides: arr(ref('Slide'), { description: 'The changed slides, normalized.' }),
    revision: int({ minimum: 0, description: 'The new revision (the current one when nothing changed).' }),
  }),
  cli: 'tailor --replace <from>=<to> --skip <skip> --logo <assetId> --logo-alt <replaceAlt>',
  mcp: 'deck_tailor',
  annotations: { destructive: true },
  cliInput: tailorCliInput,
  given: WITH_BODY_SLIDE,
  example: { replacements: [{ from: 'Acme', to: 'Globex' }], skip: ['title-1'], baseRevision: 1 },
  run: async (ctx, input: TailorInput) => {
    const current = await ctx.target()
    const deckId = current.manifest.id
    const replacements = input.replacements ?? []
    const skip = input.skip ?? []
    if (!replacements.length && !input.logo && !skip.length) fail('invalid_input', 'Name at least one step: replacements, logo or skip.', { pointer: '' })
    skip.forEach((id, i) => {
      if (!Object.hasOwn(current.slides, id)) fail('not_found', `No slide "${id}" in deck "${deckId}".`, { pointer: `/skip/${i}` })
    })
    let oldName: string | undefined
    if (input.logo) {
      if (!assetExists(ctx.ws.deckDir(deckId), input.logo.assetId)) {
        fail('not_found', `No asset "${input.logo.assetId}" in deck "${deckId}"; add it first (asset.add).`, { pointer: '/logo/assetId' })
      }
      oldName = (input.logo.replaceAlt ?? replacements[0]?.from)?.toLowerCase()
      if (!oldName) fail('invalid_input', "Name the pictures to swap: logo.replaceAlt, or a first replacement whose from is the old customer's name.", { pointer: '/logo/replaceAlt' })
    }

    const doc: DeckDoc = cloneDoc(current)
    const totals = replacements.map((r) => ({ ...r, count: 0 }))
    let logos = 0
    let skipped = 0
    const records = input.logo ? await readAssetRecords(ctx.ws, deckId) : {}
    for (const slide of orderedSlides(doc)) {
      replacements.forEach((r, i) => (totals[i].count += replaceInSlide(slide, r)))
      if (input.logo) {
        for (const block of slide.blocks ?? []) {
          if (block.kind !== 'picture' || block.asset === input.logo.assetId) continue
          const alt = own(records, String(block.asset))?.alt
          if (typeof alt === 'string' && alt.toLowerCase().includes(oldName!)) {
            block.asset = input.logo.assetId
            logos++
          }
        }
      }
      if (skip.includes(slide.id) && slide.skip !== true) {
        slide.skip = true
        skipped++
      }
    }
    // The brand kit's footer is visible text on every slide that shows it, and its logo slots are pictures.
    const kit = doc.manifest.brandKit
    if (kit) {
      for (const field of ['name', 'footer'] as const) {
        if (typeof kit[field] !== 'string') continue
        replacements.forEach((r, i) => {
          const replaced = replaceAllPlain(kit[field]!, r.from, r.to, false)
          kit[field] = replaced.text
          totals[i].count += replaced.count
        })
      }
      if (input.logo) {
        for (const slot of ['logo', 'footerLogo'] as const) {
          const assetId = kit[slot]
          if (!assetId || assetId === input.logo.assetId) continue
          const alt = own(records, assetId)?.alt
          if (typeof alt === 'string' && alt.toLowerCase().includes(oldName!)) {
            kit[slot] = input.logo.assetId
            logos++
          }
        }
      }
    }
    const brandKit = JSON.stringify(kit) !== JSON.stringify(current.manifest.brandKit)
    const changed = orderedSlides(doc)
      .filter((slide) => JSON.stringify(slide) !== JSON.stringify(current.slides[slide.id]))
      .map((slide) => slide.id)
    const counts = { replacements: totals.reduce((n, r) => n + r.count, 0), logos, skipped, slides: changed.length }
    // Nothing to change: no write, no new revision.
    if (!changed.length && !brandKit) return { counts, replacements: totals, changed, brandKit, slides: [], revision: current.manifest.revision } satisfies TailorResult
    ctx.stage(deckId, doc)
    return (docs: Map<string, DeckDoc | null>): TailorResult => {
      const next = docs.get(deckId)!
      return { counts, replacements: totals, changed, brandKit, slides: changed.map((id) => next.slides[id]), revision: next.manifest.revision }
    }
  },
  human: (result: unknown) => humanTailor(result as TailorResult),
})

function humanTailor(r: TailorResult): string {
  return (
    `Replaced ${r.counts.replacements} occurrence${r.counts.replacements === 1 ? '' : 's'}` +
    (r.replacements.length ? ` (${r.replacements.map((x) => `${x.from} → ${x.to}: ${x.count}`).join(', ')})` : '') +
    `, swapped ${r.counts.logos} logo${r.counts.logos === 1 ? '' : 's'}, skipped ${r.counts.skipped} slide${r.counts.skipped === 1 ? '' : 's'}.\n` +
    (r.changed.length || r.brandKit
      ? `Changed: ${[...r.changed, ...(r.brandKit ? ['the brand kit'] : [])].join(', ')} (revision ${r.revision}).`
      : `Nothing changed (revision ${r.revision}).`)
  )
}
