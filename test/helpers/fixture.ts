/**
 * The contract fixture: a workspace holding deck `quarterly-review` at revision 3 with one slide of
 * each common shape, and an organisation template of the same name. Action examples in the table are
 * written against it (slide ids title-1, title-body-2, two-columns-3, freeform-4; block ids b1, b2, ...).
 *
 * With `{ contract: true }` (the contract test and the fuzzer) it also holds what the examples of
 * deck.restore and version.restore need: a trashed deck `old-pitch` at revision 1, and version 1
 * ("Sent to the board") naming revision 2, a draft whose opening slide said "Q3 draft"; and the
 * photo asset.add adds, photos/harbour.jpg, an asset `harbour` for slide.setBackgroundPicture, and
 * the file of the logo freeform-4 shows, for picture.dither. (The contract now runs the examples on
 * `newUserWorkspace`; it keeps this fixture for its refusals.)
 *
 * `newUserWorkspace` is what a new user has, the deck action examples are written for: `studio init`,
 * then `studio deck create "Quarterly review"` (deck quarterly-review at revision 0, slide title-1 in
 * section main), both through the real CLI, plus one file of the user's outside decks/ (not
 * committed), the photo asset.add's example adds: photos/harbour.jpg.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { canonicalJson } from '../../src/store/canonical.js'
import { fromTemplate, studio, workspace, type TestWorkspace } from './studio.js'

/** The photo of the user's that asset.add's example adds, relative to the workspace root. */
export const USER_PHOTO = 'photos/harbour.jpg'

/** A new user's workspace: `studio init`, `studio deck create "Quarterly review"` and their photo. */
export async function newUserWorkspace(): Promise<TestWorkspace> {
  return fromTemplate('new user', async () => {
    const ws = await workspace()
    const created = await studio(ws.dir, ['deck', 'create', 'Quarterly review', '--json'])
    if (created.code !== 0) throw new Error(created.stdout)
    const { default: sharp } = await import('sharp')
    mkdirSync(join(ws.dir, 'photos'), { recursive: true })
    writeFileSync(join(ws.dir, USER_PHOTO), await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#35607a' } }).jpeg().toBuffer())
    return { dir: ws.dir }
  })
}

export const FIXTURE_DECK = 'quarterly-review'
export const FIXTURE_REVISION = 3

export const FIXTURE_SLIDES = [
  { id: 'title-1', layout: 'title', title: 'Quarterly review', subtitle: 'Q3 results', notes: 'Welcome everyone to Acme.' },
  {
    id: 'title-body-2',
    layout: 'title-body',
    blocks: [
      { id: 'title', kind: 'heading', slot: 'title', text: 'Why now' },
      { id: 'b1', kind: 'text', slot: 'body', text: 'Costs fell by half at Acme.\nMargins grew.' },
      { id: 'b2', kind: 'list', slot: 'body', marker: 'bullet', items: [{ text: 'Faster builds' }, { text: 'Fewer incidents', level: 2 }, { text: 'Happier teams' }] },
    ],
  },
  {
    id: 'two-columns-3',
    layout: 'two-columns',
    blocks: [
      { id: 'title', kind: 'heading', slot: 'title', text: 'Before and after' },
      { id: 'b1', kind: 'text', slot: 'left', text: 'Before: weekly releases.' },
      { id: 'b2', kind: 'text', slot: 'right', text: 'After: daily releases.' },
      { id: 'b3', kind: 'table', slot: 'right', header: true, rows: [['Metric', 'Value'], ['Lead time', '2 days']] },
    ],
  },
  {
    id: 'freeform-4',
    layout: 'freeform',
    blocks: [
      { id: 'b1', kind: 'shape', shape: 'rect', pos: { x: 100, y: 100, w: 300, h: 200 }, z: 0, text: 'Plan' },
      { id: 'b2', kind: 'textbox', pos: { x: 500, y: 150, w: 400, h: 120 }, z: 1, text: 'Build' },
      { id: 'b3', kind: 'picture', asset: 'logo', pos: { x: 1000, y: 100, w: 300, h: 300 }, z: 2 },
      { id: 'b4', kind: 'line', connector: true, start: { block: 'b1', side: 'right' }, end: { block: 'b2', side: 'left' }, pos: { x: 400, y: 200, w: 100, h: 10 }, z: 3 },
      { id: 'b5', kind: 'chart', chartType: 'bar', data: { categories: ['Q1', 'Q2'], series: [{ name: 'Revenue', values: [1, 2] }] }, pos: { x: 100, y: 450, w: 600, h: 350 }, z: 4 },
    ],
  },
]

/**
 * Contract mode only: a shader block on the canvas slide, for the examples of shader.set, shader.frame
 * and shader.capture. Its recipe is the featured one of paper:mesh-gradient, so shader.frame's
 * example names its frame key (a change to the catalogue's defaults shows up there first).
 */
export const CONTRACT_SHADER = { id: 'b6', kind: 'shader', materialId: 'paper:mesh-gradient', preset: 'dusk', anchor: 2400, motion: 'play', pos: { x: 800, y: 450, w: 640, h: 360 }, z: 5 }

/** Makes the fixture workspace (a copy of the one built first in this process); returns it with a cleanup. */
export async function fixtureWorkspace(options: { contract?: boolean } = {}): Promise<TestWorkspace> {
  return fromTemplate(options.contract ? 'fixture, contract' : 'fixture', async () => ({ dir: (await buildFixture(options)).dir }))
}

async function buildFixture(options: { contract?: boolean }) {
  const ws = await workspace()
  const created = await studio(ws.dir, ['deck', 'create', 'Quarterly review', '--json'])
  if (created.code !== 0) throw new Error(created.stdout)
  const dir = join(ws.dir, 'decks', FIXTURE_DECK)
  const now = '2026-11-22T00:00:00.000Z'
  const manifest = {
    id: FIXTURE_DECK,
    title: 'Quarterly review',
    theme: 'studio-simple',
    defaults: { appearance: 'light' },
    sections: [
      { id: 'opening', title: 'Opening', slides: ['title-1', 'title-body-2'] },
      { id: 'detail', title: 'Detail', slides: ['two-columns-3', 'freeform-4'] },
    ],
    revision: FIXTURE_REVISION,
    stamps: { createdAt: now, updatedAt: now },
    template: 'blank',
  }
  mkdirSync(join(dir, 'slides'), { recursive: true })
  mkdirSync(join(dir, 'assets'), { recursive: true })
  const commit = async (message: string) => {
    await ws.git('add', '-A')
    await ws.git('-c', 'user.name=fixture', '-c', 'user.email=fixture@studio.invalid', 'commit', '-qm', message)
  }
  const writeSlides = (slides: { id: string }[]) => {
    for (const slide of slides) writeFileSync(join(dir, 'slides', `${slide.id}.json`), canonicalJson(slide))
  }
  writeFileSync(join(dir, 'assets', 'logo.json'), canonicalJson({ id: 'logo', role: 'logo', alt: 'Acme logo' }))
  if (options.contract) {
    // Revision 2, the draft version 1 names.
    writeFileSync(join(dir, 'deck.json'), canonicalJson({ ...manifest, revision: 2 }))
    writeSlides(FIXTURE_SLIDES.map((slide) => (slide.id === 'title-1' ? { ...slide, subtitle: 'Q3 draft' } : slide)))
    await commit('fixture draft')
    writeFileSync(join(dir, 'versions.json'), canonicalJson([{ n: 1, author: 'fixture', note: 'Sent to the board', revision: 2, at: now }]))
    const trashed = join(ws.dir, 'decks', 'old-pitch')
    mkdirSync(join(trashed, 'slides'), { recursive: true })
    writeFileSync(
      join(trashed, 'deck.json'),
      canonicalJson({
        id: 'old-pitch',
        title: 'Old pitch',
        theme: 'studio-simple',
        defaults: { appearance: 'light' },
        sections: [{ id: 'main', title: 'Main', slides: ['title-1'] }],
        revision: 1,
        stamps: { createdAt: now, updatedAt: now },
        template: 'blank',
        trashedAt: now,
      }),
    )
    writeFileSync(join(trashed, 'slides', 'title-1.json'), canonicalJson({ id: 'title-1', layout: 'title', title: 'Old pitch' }))
    // The photo asset.add's example adds (outside decks/: a file of the user's).
    const { default: sharp } = await import('sharp')
    mkdirSync(join(ws.dir, 'photos'), { recursive: true })
    const harbour = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#35607a' } }).jpeg().toBuffer()
    writeFileSync(join(ws.dir, 'photos', 'harbour.jpg'), harbour)
    // And an asset of the deck that slide.setBackgroundPicture's example shows.
    writeFileSync(join(dir, 'assets', 'harbour.jpg'), harbour)
    writeFileSync(join(dir, 'assets', 'harbour.json'), canonicalJson({ id: 'harbour', role: 'picture', alt: 'The harbour', file: 'harbour.jpg' }))
    // The logo freeform-4 shows gets its file, for picture.dither's example.
    writeFileSync(join(dir, 'assets', 'logo.png'), await sharp({ create: { width: 400, height: 400, channels: 3, background: '#0a7d5a' } }).png().toBuffer())
    writeFileSync(join(dir, 'assets', 'logo.json'), canonicalJson({ id: 'logo', role: 'logo', alt: 'Acme logo', file: 'logo.png', width: 400, height: 400 }))
  }
  writeFileSync(join(dir, 'deck.json'), canonicalJson(manifest))
  writeSlides(options.contract ? FIXTURE_SLIDES.map((slide) => (slide.id === 'freeform-4' ? { ...slide, blocks: [...slide.blocks!, CONTRACT_SHADER] } : slide)) : FIXTURE_SLIDES)
  await commit('fixture')
  const template = await studio(ws.dir, ['template', 'create', FIXTURE_DECK, 'Quarterly review', '--json'])
  if (template.code !== 0) throw new Error(template.stdout)
  return ws
}

/**
 * The comment tests' slide numbers-2: a heading, a two-paragraph text block b1 ("half" at [14, 18]),
 * a table b2 (row 2 "Costs", column 1 "Q1" holds "8") and notes.
 */
export const COMMENTED_SLIDE = {
  id: 'numbers-2',
  layout: 'title-body',
  blocks: [
    { id: 'title', kind: 'heading', slot: 'title', text: 'Why now' },
    { id: 'b1', kind: 'text', slot: 'body', text: 'Costs fell by half at Acme.\nMargins grew.' },
    { id: 'b2', kind: 'table', slot: 'body', header: true, rows: [['Metric', 'Q1', 'Q2'], ['Revenue', '10', '12'], ['Costs', '8', '4']] },
  ],
  notes: 'Pause here.',
}
