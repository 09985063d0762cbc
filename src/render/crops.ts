/**
 * Review pictures: before and after crops of every block a change touched, and whole-slide
 * thumbnails for slides added or removed (and for changes to a slide as a whole: layout, background).
 *
 * Each side is rendered as it was: its slides from the document at that side, its pictures from the
 * deck's assets at that commit (written to a scratch folder), or from the deck folder when the side
 * is the working state. A crop is the union of the block's box before and after, 24 px around,
 * cut from both renders at the same place so the two pictures line up.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { DeckDoc, Slide } from '../model/deck.js'
import type { SlideChange } from '../history/diff.js'
import { drawnBoxes } from '../layout/stack.js'
import { themeFonts } from '../model/themes.js'
import type { Box } from '../layout/boxes.js'
import { filesAt } from '../history/history.js'
import { withReader } from '../history/index.js'
import type { Workspace } from '../store/workspace.js'
import { mkdirInside, writeInside } from '../store/safe-open.js'
import type { Appearance } from './paint.js'
import { renderSlides } from './pipeline.js'

export interface Side {
  doc: DeckDoc | null
  /** The commit the side is read from; null for the working state (assets from the deck folder). */
  commit: string | null
}

export interface Crop {
  deck: string
  slideId: string
  /** The block cropped; null for a whole-slide thumbnail. */
  blockId: string | null
  kind: SlideChange['kind']
  theme: Appearance
  /** Workspace-relative image paths; null on the side where the slide does not exist. */
  before: string | null
  after: string | null
  /** The cropped area on the sheet (the whole sheet for a thumbnail). */
  box: Box
}

const PAD = 24
const THUMB = 640
const SHEET_BOX: Box = { x: 0, y: 0, w: 1600, h: 900 }

function union(a: Box | undefined, b: Box | undefined): Box | undefined {
  if (!a) return b
  if (!b) return a
  const x = Math.min(a.x, b.x)
  const y = Math.min(a.y, b.y)
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y }
}

function padded(box: Box): Box {
  const x = Math.max(0, Math.floor(box.x - PAD))
  const y = Math.max(0, Math.floor(box.y - PAD))
  const right = Math.min(1600, Math.ceil(box.x + box.w + PAD))
  const bottom = Math.min(900, Math.ceil(box.y + box.h + PAD))
  return { x, y, w: Math.max(1, right - x), h: Math.max(1, bottom - y) }
}

const fileSafe = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_')

/** Writes the deck's assets at a commit into a scratch folder shaped like a deck folder. */
async function assetsAt(ws: Workspace, deckId: string, commit: string, into: string): Promise<void> {
  await withReader(ws, async (reader) => {
    const files = await filesAt(reader, commit, ws.gitPath(`decks/${deckId}/assets`))
    const names = [...files.keys()].filter((name) => !name.includes('/'))
    const objects = await reader.read(names.map((name) => files.get(name)!))
    mkdirSync(join(into, 'assets'), { recursive: true })
    names.forEach((name, i) => {
      if (objects[i]) writeFileSync(join(into, 'assets', name), objects[i]!.data)
    })
  })
}

/** Renders both sides of a deck's changes and cuts the crops into `outDir`. */
export async function reviewCrops(ws: Workspace, deckId: string, before: Side, after: Side, changes: SlideChange[], appearances: Appearance[], outDir: string): Promise<Crop[]> {
  const pictured = changes.filter((c) => c.kind !== 'moved' || c.blocks.length)
  if (!pictured.length) return []
  const { default: sharp } = await import('sharp')
  mkdirInside(ws.root, join(ws.root, '.studio', 'tmp'))
  const scratch = mkdtempSync(join(ws.root, '.studio', 'tmp', 'crops-'))
  try {
    const renderSide = async (side: Side, name: 'before' | 'after', slides: Slide[]) => {
      if (!side.doc || !slides.length) return new Map<string, string>()
      let deckDir = ws.deckDir(deckId)
      if (side.commit) {
        deckDir = join(scratch, `${name}-deck`)
        await assetsAt(ws, deckId, side.commit, deckDir)
      }
      const { records } = await renderSlides({ doc: side.doc, deckDir, slides, appearances, scale: 1, format: 'png', outDir: join(scratch, name), root: scratch })
      return new Map(records.map((r) => [`${r.slideId} ${r.theme}`, join(scratch, r.file)]))
    }
    const slidesOf = (doc: DeckDoc | null) => pictured.map((c) => (doc && Object.hasOwn(doc.slides, c.slideId) ? doc.slides[c.slideId] : undefined)).filter((s): s is Slide => Boolean(s))
    const [beforeImages, afterImages] = [await renderSide(before, 'before', slidesOf(before.doc)), await renderSide(after, 'after', slidesOf(after.doc))]
    mkdirInside(ws.root, outDir)
    const crops: Crop[] = []
    const cut = async (image: string | undefined, box: Box, file: string, thumb: boolean) => {
      if (!image) return null
      let pipeline = sharp(image).extract({ left: box.x, top: box.y, width: box.w, height: box.h })
      if (thumb) pipeline = pipeline.resize({ width: THUMB })
      await writeInside(ws.root, join(outDir, file), await pipeline.png().toBuffer())
      return relative(ws.root, join(outDir, file))
    }
    for (const change of pictured) {
      const slideBefore = before.doc && Object.hasOwn(before.doc.slides, change.slideId) ? before.doc.slides[change.slideId] : undefined
      const slideAfter = after.doc && Object.hasOwn(after.doc.slides, change.slideId) ? after.doc.slides[change.slideId] : undefined
      const boxesBefore = slideBefore ? drawnBoxes(slideBefore, themeFonts(before.doc!.manifest)) : new Map<string, Box>()
      const boxesAfter = slideAfter ? drawnBoxes(slideAfter, themeFonts(after.doc!.manifest)) : new Map<string, Box>()
      const targets: { blockId: string | null; box: Box }[] = []
      if (change.kind === 'added' || change.kind === 'removed' || !change.blocks.length) targets.push({ blockId: null, box: SHEET_BOX })
      else {
        for (const blockId of change.blocks) {
          const box = union(boxesBefore.get(blockId), boxesAfter.get(blockId))
          if (box) targets.push({ blockId, box: padded(box) })
        }
        if (!targets.length) targets.push({ blockId: null, box: SHEET_BOX })
      }
      for (const theme of appearances) {
        for (const target of targets) {
          const base = `${fileSafe(deckId)}-${fileSafe(change.slideId)}${target.blockId ? `-${fileSafe(target.blockId)}` : ''}.${theme}`
          const thumb = target.blockId === null
          crops.push({
            deck: deckId,
            slideId: change.slideId,
            blockId: target.blockId,
            kind: change.kind,
            theme,
            before: await cut(beforeImages.get(`${change.slideId} ${theme}`), target.box, `${base}.before.png`, thumb),
            after: await cut(afterImages.get(`${change.slideId} ${theme}`), target.box, `${base}.after.png`, thumb),
            box: target.box,
          })
        }
      }
    }
    return crops
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
