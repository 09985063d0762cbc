import { own } from '../../model/own.js'
import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { findSlide, sectionOf } from '../../model/edit.js'
import { arr, bool, int, nullable, obj, oneOf, openObj, opt, ref, SectionId, SlideId, str } from '../../model/schema.js'
import { LAYOUTS } from '../../model/layouts.js'
import { CurrentRevision, result } from '../../model/results.js'
import { newestRender, RenderRecordSchema } from '../render/render.js'
import { assetRecords, countFindings, findingsOf, kindOfLayout, slideAssets } from './common.js'
import { createHash } from 'node:crypto'
import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { DeckDoc } from '../../model/deck.js'
import type { AssetRecord } from '../../model/lint.js'
import { canonicalJson } from '../../store/canonical.js'
import { DerivedIndex } from '../../store/deck-index.js'
import { stateOf, summarize } from '../../store/deck-state.js'

/** The running build (the module file's mtime): lint counts kept by an older build are not used. */
let build: string | undefined
function buildOf(): string {
  if (build === undefined) {
    try {
      build = String(statSync(fileURLToPath(import.meta.url)).mtimeMs)
    } catch {
      build = ''
    }
  }
  return build
}

/**
 * Everything lint reads beside the slide (docs/model.md#lint): the manifest but its section list,
 * revision and stamps, the deck's asset records, and the build whose rules count. Lint counts are
 * kept by slide hash under this.
 */
function lintContext(doc: DeckDoc, assets: Record<string, AssetRecord>): string {
  const { sections: _sections, revision: _revision, stamps: _stamps, ...manifest } = doc.manifest
  return createHash('sha1').update(buildOf()).update(canonicalJson({ manifest, assets })).digest('hex').slice(0, 16)
}

interface ListedSlide {
  id: string
  number: number
  section: string
  title: string
  kind: string
  layout: string
  skip: boolean
  lint: { error: number; warning: number; info: number }
}

export const slideList = defineAction({
  id: 'slide.list',
  label: 'List slides',
  doc: 'Lists every slide in deck order with its number, section, title, kind and lint counts.',
  group: 'slide',
  milestone: 'M2',
  mutates: false,
  transports: 'CMHP',
  input: obj({ sectionId: opt({ ...SectionId, description: 'Only the slides of this section.' }) }),
  output: result({
    slides: arr(
      obj({
        id: SlideId,
        number: int({ minimum: 1, description: 'Its number in the whole deck (1-based).' }),
        section: SectionId,
        title: str(),
        kind: oneOf(['title', 'section', 'content', 'picture', 'statement', 'freeform']),
        layout: oneOf(LAYOUTS),
        skip: bool(),
        lint: ref('LintCounts'),
      }),
      { description: 'Every slide in deck order (of the section, when one is named).' },
    ),
    revision: CurrentRevision,
  }),
  cli: 'slides',
  mcp: 'deck_list_slides',
  example: {},
  run: async (ctx, input: { sectionId?: string }) => {
    const doc = await ctx.target()
    if (input.sectionId !== undefined && !doc.manifest.sections.some((s) => s.id === input.sectionId)) {
      fail('not_found', `No section "${input.sectionId}" in deck "${doc.manifest.id}".`, { pointer: '/sectionId' })
    }
    const assets = await assetRecords(ctx, doc)
    // Titles, kinds and lint counts come from the store's records and the derived index (lint counts
    // by the slide's hash and everything else lint reads): a slide is read only when they are unknown.
    const state = stateOf(doc)
    const index = state?.source instanceof DerivedIndex ? state.source : undefined
    const records = state?.allRecords()
    const context = lintContext(doc, assets)
    const slides: ListedSlide[] = []
    let number = 0
    for (const section of doc.manifest.sections) {
      for (const id of section.slides) {
        const record = records?.get(id)
        const slide = record ? undefined : own(doc.slides, id)
        if (!record && !slide) continue
        number++
        if (input.sectionId !== undefined && section.id !== input.sectionId) continue
        const summary = record?.summary ?? summarize(slide!)
        let lint = record && index?.lintCounts(record.hash, context)
        if (!lint) {
          lint = countFindings(findingsOf(doc.slides[id], doc, assets))
          if (record) index?.setLintCounts(record.hash, context, lint)
        }
        slides.push({ id, number, section: section.id, title: summary.title, kind: kindOfLayout(summary.layout), layout: summary.layout, skip: summary.skip, lint })
      }
    }
    if (state && index) index.save(state)
    return { slides, revision: doc.manifest.revision }
  },
  human: (result: { slides: ListedSlide[] }) =>
    result.slides
      .map((s) => {
        const lint = [s.lint.error && `${s.lint.error} error`, s.lint.warning && `${s.lint.warning} warning`].filter(Boolean).join(', ')
        return `${String(s.number).padStart(3)}  ${s.id.padEnd(24)} ${s.kind.padEnd(10)} ${s.title}${s.skip ? '  (skipped)' : ''}${lint ? `  [${lint}]` : ''}`
      })
      .join('\n'),
})

export const slideGet = defineAction({
  id: 'slide.get',
  label: 'Get slide',
  doc: 'Reads one slide: the normalized slide document, the assets it references and its last render record.',
  group: 'slide',
  milestone: 'M2',
  mutates: false,
  transports: 'CMHP',
  input: obj({ slideId: SlideId }),
  output: result({
    slide: ref('Slide'),
    section: { ...nullable(SectionId), description: 'The id of the section holding it.' },
    number: { ...nullable(int({ minimum: 1 })), description: 'Its number in the deck (1-based).' },
    assets: arr(str(), { description: "Ids of the assets the slide references (its pictures' assets)." }),
    render: { ...nullable(RenderRecordSchema), description: 'Its newest render in .studio/render that still shows the slide as it is now; null when there is none.' },
    revision: CurrentRevision,
  }),
  cli: 'slide get <slideId>',
  mcp: 'deck_get_slide',
  example: { slideId: 'title-1' },
  run: async (ctx, input: { slideId: string }) => {
    const doc = await ctx.target()
    const slide = findSlide(doc, input.slideId)
    const at = sectionOf(doc, slide.id)
    const number = at ? doc.manifest.sections.slice(0, at.sectionIndex).reduce((n, s) => n + s.slides.length, 0) + at.index + 1 : null
    return {
      slide,
      section: at ? doc.manifest.sections[at.sectionIndex].id : null,
      number,
      assets: slideAssets(slide),
      render: await newestRender(ctx.ws, doc, slide),
      revision: doc.manifest.revision,
    }
  },
})
