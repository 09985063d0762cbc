import { defineAction, type ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block } from '../../model/deck.js'
import { findSlide } from '../../model/edit.js'
import { arr, bool, BR, nullable, num, obj, oneOf, opt, ref, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { blockIn, blockOfKind, editSlide, humanResult } from './canvas.js'
import { blockId, slideId } from './common.js'
import { WITH_CANVAS_SLIDE } from '../given.js'

interface ChartData {
  categories: string[]
  series: { name: string; values: (number | null)[] }[]
}

/** Chart types whose series can stack. */
export const STACKING = new Set(['bar', 'column', 'area'])

/** Lint findings of chart data: series whose length is not the number of categories. */
export function chartFindings(data: ChartData, base = '/data'): { pointer: string; message: string }[] {
  return data.series.flatMap((series, i) =>
    series.values.length === data.categories.length
      ? []
      : [{ pointer: `${base}/series/${i}/values`, message: `Series "${series.name}" has ${series.values.length} values for ${data.categories.length} categories.` }],
  )
}

function editChart(ctx: ActionContext, input: { slideId: string; blockId: string }, change: (chart: Block) => void) {
  return editSlide(
    ctx,
    input.slideId,
    (doc) => change(blockOfKind(findSlide(doc, input.slideId), input.blockId, ['chart'], 'a chart')),
    (slide) => {
      const block = blockIn(slide, input.blockId)!
      return { block, findings: chartFindings(block.data as ChartData) }
    },
  )
}

export const CHART_TYPES = ['bar', 'column', 'line', 'area', 'pie', 'doughnut', 'scatter'] as const

const chartBlock = { ...blockId, description: 'The chart block.' }
const chartResult = written({
  block: { ...ref('Block'), description: 'The chart block after the write.' },
  findings: arr(obj({ pointer: str({ description: 'Where, in the chart block.' }), message: str() }), { description: 'Data findings (for example series of unequal length).' }),
  slide: ref('Slide'),
})

export const chartSetData = defineAction({
  id: 'chart.setData',
  label: 'Set chart data',
  doc: 'Replaces the data of a chart: category labels and named series with one value per category (null for a gap).',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId: chartBlock,
    data: obj(
      {
        categories: arr(str(), { description: 'Category labels, in order.' }),
        series: arr(
          obj({
            name: str({ description: 'Series name shown in the legend.' }),
            values: arr(nullable(num()), { description: 'One value per category; null leaves a gap.' }),
          }),
          { minItems: 1, description: 'The series.' },
        ),
      },
      { description: 'The chart data.' },
    ),
    baseRevision: BR,
  }),
  output: chartResult,
  cli: 'chart data <slideId>#<blockId> < data.json',
  mcp: 'deck_set_chart_data',
  human: humanResult,
  stdinField: 'data',
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b5', data: { categories: ['Q1', 'Q2', 'Q3'], series: [{ name: 'Revenue', values: [12, 15, 19] }] }, baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockId: string; data: ChartData; baseRevision: number }) =>
    editChart(ctx, input, (chart) => {
      chart.data = structuredClone(input.data)
    }),
})

export const chartSetType = defineAction({
  id: 'chart.setType',
  label: 'Set chart type',
  doc: 'Changes the type of a chart, keeping its data; stacked stacks the series of bar, column and area charts.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId: chartBlock,
    type: oneOf(CHART_TYPES, { description: 'The chart type.' }),
    stacked: opt(bool({ description: 'Stack the series (bar, column, area); off when absent.' })),
    baseRevision: BR,
  }),
  output: chartResult,
  cli: 'chart type <slideId>#<blockId> <type> --stacked',
  mcp: 'deck_set_chart_type',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_CANVAS_SLIDE,
  example: { slideId: 'freeform-4', blockId: 'b5', type: 'column', stacked: true, baseRevision: 2 },
  run: (ctx, input: { slideId: string; blockId: string; type: string; stacked?: boolean; baseRevision: number }) =>
    editChart(ctx, input, (chart) => {
      if (input.stacked && !STACKING.has(input.type)) fail('invalid_input', `A ${input.type} chart does not stack; stacked is for bar, column and area charts.`, { pointer: '/stacked' })
      chart.chartType = input.type
      if (input.stacked) chart.stacked = true
      else delete chart.stacked
    }),
})
