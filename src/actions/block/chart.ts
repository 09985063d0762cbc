import { defineAction } from '../../core/action.js'
import { arr, bool, BR, nullable, num, obj, oneOf, opt, outline, str } from '../../model/schema.js'
import { blockId, slideId } from './common.js'

export const CHART_TYPES = ['bar', 'column', 'line', 'area', 'pie', 'doughnut', 'scatter'] as const

const chartBlock = { ...blockId, description: 'The chart block.' }
const chartResult = outline({ block: 'The chart block after the write.', findings: 'Lint findings (for example series of unequal length).', revision: 'The new revision.' })

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
  stdinField: 'data',
  annotations: { idempotent: true },
  example: {
    slideId: 'chart-6',
    blockId: 'b1',
    data: { categories: ['Q1', 'Q2', 'Q3'], series: [{ name: 'Revenue', values: [12, 15, 19] }] },
    baseRevision: 3,
  },
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
  annotations: { idempotent: true },
  example: { slideId: 'chart-6', blockId: 'b1', type: 'column', stacked: false, baseRevision: 3 },
})
