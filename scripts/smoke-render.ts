import { readDeckFolder } from '../src/store/decks.ts'
import { renderSlides } from '../src/render/pipeline.ts'
const dir = process.argv[2]
const doc = await readDeckFolder(dir)
const ids = doc.manifest.sections.flatMap((s) => s.slides)
const pick = process.argv[3] ? ids.filter((id) => process.argv[3].split(',').includes(id)) : ids
const t = performance.now()
const r = await renderSlides({ doc, deckDir: dir, slides: pick.map((id) => doc.slides[id]), appearances: ['light', 'dark'], scale: 1, format: 'png', outDir: '/tmp/smoke/out', root: '/tmp/smoke' })
console.log(r.records.length, 'records', Math.round(performance.now() - t), 'ms, launch', Math.round(r.launchMs ?? 0))
