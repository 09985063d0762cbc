import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { orderedSlides } from '../../model/deck.js'
import { countFindings, lintSlide, type Finding, type LintCounts } from '../../model/lint.js'
import { arr, obj, opt, ref, SlideId, SlideIds } from '../../model/schema.js'
import { CurrentRevision, FINDING_MEMBERS, result } from '../../model/results.js'
import { readAssetRecords } from '../../store/asset-records.js'

interface LintResult {
  findings: (Finding & { slideId: string })[]
  slides: { slideId: string; counts: LintCounts }[]
  counts: LintCounts
  revision: number
}

export const deckLint = defineAction({
  id: 'deck.lint',
  label: 'Lint a deck',
  doc:
    'Findings per slide, in deck order: empty placeholders, missing alt text, objects off the sheet, overlapping text boxes, overflowing text, ' +
    'more than 120 words, low contrast, skipped slides holding only notes, markup the Text reader refuses, chart series in one colour, pictures a cover crop cuts mostly away. Each finding has a rule, a severity (error, warning, info), the block when ' +
    'it is about one, and a message; counts per severity for the deck and per slide (the lint counts slide.list shows). Rules: docs/model.md.',
  group: 'deck',
  milestone: 'M2',
  mutates: false,
  transports: 'CMHP',
  input: obj({ slideIds: opt({ ...SlideIds, description: 'Only these slides; every slide when absent.' }) }),
  output: result({
    findings: arr(obj({ slideId: SlideId, ...FINDING_MEMBERS }), { description: 'Every finding, in deck order.' }),
    slides: arr(obj({ slideId: SlideId, counts: ref('LintCounts') }), { description: 'Per slide in deck order: its counts per severity.' }),
    counts: ref('LintCounts'),
    revision: { ...CurrentRevision, description: 'The revision linted.' },
  }),
  cli: 'deck lint --slides <slideIds>',
  mcp: 'deck_lint',
  example: {},
  run: async (ctx, input: { slideIds?: string[] }) => {
    const doc = await ctx.target()
    input.slideIds?.forEach((id, i) => {
      if (!Object.hasOwn(doc.slides, id)) fail('not_found', `No slide "${id}" in deck "${doc.manifest.id}".`, { pointer: `/slideIds/${i}` })
    })
    const wanted = input.slideIds ? new Set(input.slideIds) : undefined
    const assets = await readAssetRecords(ctx.ws, doc.manifest.id)
    const findings: LintResult['findings'] = []
    const slides: LintResult['slides'] = []
    for (const slide of orderedSlides(doc)) {
      if (wanted && !wanted.has(slide.id)) continue
      const found = lintSlide(slide, doc, { assets })
      findings.push(...found.map((f) => ({ slideId: slide.id, ...f })))
      slides.push({ slideId: slide.id, counts: countFindings(found) })
    }
    return { findings, slides, counts: countFindings(findings), revision: doc.manifest.revision } satisfies LintResult
  },
  reportsErrors: (r: LintResult) => r.counts.error > 0,
  human: (r: LintResult) => {
    const lines = r.findings.map((f) => `${f.slideId}${f.blockId ? `#${f.blockId}` : ''}  ${f.severity}  ${f.rule}: ${f.message}`)
    lines.push(`${r.counts.error} error${r.counts.error === 1 ? '' : 's'}, ${r.counts.warning} warning${r.counts.warning === 1 ? '' : 's'}, ${r.counts.info} info on ${r.slides.length} slide${r.slides.length === 1 ? '' : 's'}.`)
    return lines.join('\n')
  },
})
