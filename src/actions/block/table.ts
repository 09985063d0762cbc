import { defineAction, type ActionContext } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import type { Block } from '../../model/deck.js'
import { findSlide } from '../../model/edit.js'
import { arr, BR, int, obj, opt, ref, str } from '../../model/schema.js'
import { written } from '../../model/results.js'
import { blockIn, blockOfKind, editSlide, humanResult } from './canvas.js'
import { blockId, slideId } from './common.js'
import { WITH_COLUMNS_SLIDE } from '../given.js'

interface TableInput {
  slideId: string
  blockId: string
  baseRevision: number
}

/** The rows of a table, each padded to the widest row (the table's column count). */
function gridOf(table: Block): string[][] {
  const rows = (table.rows as string[][]).map((row) => [...row])
  const width = Math.max(1, ...rows.map((row) => row.length))
  for (const row of rows) while (row.length < width) row.push('')
  return rows
}

/** Edits one table's rows (and column widths) and answers with the table. */
function editTable(ctx: ActionContext, input: TableInput, change: (rows: string[][], table: Block) => string[][]) {
  return editSlide(
    ctx,
    input.slideId,
    (doc) => {
      const table = blockOfKind(findSlide(doc, input.slideId), input.blockId, ['table'], 'a table')
      table.rows = change(gridOf(table), table)
    },
    (slide) => ({ block: blockIn(slide, input.blockId) }),
  )
}

/** Checks 0-based indexes against a length (404 for one past it) and that at least one stays. */
function checkRemoval(indexes: number[], length: number, field: 'rows' | 'columns'): Set<number> {
  indexes.forEach((index, i) => {
    if (index >= length) fail('not_found', `The table has ${length} ${field}; there is no ${field === 'rows' ? 'row' : 'column'} ${index}.`, { pointer: `/${field}/${i}` })
  })
  const removed = new Set(indexes)
  if (removed.size >= length) fail('refused', `A table keeps at least one ${field === 'rows' ? 'row' : 'column'}.`, { pointer: `/${field}` })
  return removed
}

/** Checks an insertion index (0 up to the length). */
function insertionAt(at: number | undefined, length: number, what: string): number {
  if (at === undefined) return length
  if (at > length) fail('not_found', `The table has ${length} ${what}; insert at 0 up to ${length}.`, { pointer: '/at' })
  return at
}

const tableBlock = { ...blockId, description: 'The table block.' }
const tableResult = written({ block: { ...ref('Block'), description: 'The table block after the write.' }, slide: ref('Slide') })
const at = (what: string) => opt(int({ minimum: 0, description: `Index (0-based) the new ${what} take; after the last when absent.` }))
const count = (what: string) => opt(int({ minimum: 1, maximum: 50, default: 1, description: `How many ${what} to insert; 1 when absent.` }))
const indexes = (what: string) => arr(int({ minimum: 0 }), { minItems: 1, uniqueItems: true, description: `${what} to remove (0-based).` })

export const tableInsertRows = defineAction({
  id: 'table.insertRows',
  label: 'Insert table rows',
  doc: 'Inserts empty rows into a table at an index (after the last row when absent).',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId: tableBlock, at: at('rows'), count: count('rows'), baseRevision: BR }),
  output: tableResult,
  cli: 'table insert-rows <slideId>#<blockId> --at <at> --count <count>',
  mcp: 'deck_insert_table_rows',
  human: humanResult,
  given: WITH_COLUMNS_SLIDE,
  example: { slideId: 'two-columns-3', blockId: 'b3', at: 2, count: 1, baseRevision: 1 },
  run: (ctx, input: TableInput & { at?: number; count?: number }) =>
    editTable(ctx, input, (rows) => {
      const at = insertionAt(input.at, rows.length, 'rows')
      const width = rows[0]?.length ?? 1
      rows.splice(at, 0, ...Array.from({ length: input.count ?? 1 }, () => Array<string>(width).fill('')))
      return rows
    }),
})

export const tableRemoveRows = defineAction({
  id: 'table.removeRows',
  label: 'Remove table rows',
  doc: 'Removes rows from a table; a table keeps at least one row.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId: tableBlock, rows: indexes('Rows'), baseRevision: BR }),
  output: tableResult,
  cli: 'table remove-rows <slideId>#<blockId> --rows <rows>',
  mcp: 'deck_remove_table_rows',
  human: humanResult,
  annotations: { destructive: true },
  given: WITH_COLUMNS_SLIDE,
  example: { slideId: 'two-columns-3', blockId: 'b3', rows: [1], baseRevision: 1 },
  run: (ctx, input: TableInput & { rows: number[] }) =>
    editTable(ctx, input, (rows) => {
      const removed = checkRemoval(input.rows, rows.length, 'rows')
      return rows.filter((_, i) => !removed.has(i))
    }),
})

export const tableInsertColumns = defineAction({
  id: 'table.insertColumns',
  label: 'Insert table columns',
  doc: 'Inserts empty columns into a table at an index (after the last column when absent).',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId: tableBlock, at: at('columns'), count: count('columns'), baseRevision: BR }),
  output: tableResult,
  cli: 'table insert-columns <slideId>#<blockId> --at <at> --count <count>',
  mcp: 'deck_insert_table_columns',
  human: humanResult,
  given: WITH_COLUMNS_SLIDE,
  example: { slideId: 'two-columns-3', blockId: 'b3', count: 1, baseRevision: 1 },
  run: (ctx, input: TableInput & { at?: number; count?: number }) =>
    editTable(ctx, input, (rows, table) => {
      const width = rows[0]?.length ?? 0
      const at = insertionAt(input.at, width, 'columns')
      const count = input.count ?? 1
      for (const row of rows) row.splice(at, 0, ...Array<string>(count).fill(''))
      const widths = table.columnWidths as number[] | undefined
      if (widths && widths.length === width) {
        const mean = widths.reduce((a, b) => a + b, 0) / (width || 1)
        widths.splice(at, 0, ...Array<number>(count).fill(Math.round(mean * 100) / 100))
      } else delete table.columnWidths
      return rows
    }),
})

export const tableRemoveColumns = defineAction({
  id: 'table.removeColumns',
  label: 'Remove table columns',
  doc: 'Removes columns from a table; a table keeps at least one column.',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({ slideId, blockId: tableBlock, columns: indexes('Columns'), baseRevision: BR }),
  output: tableResult,
  cli: 'table remove-columns <slideId>#<blockId> --columns <columns>',
  mcp: 'deck_remove_table_columns',
  human: humanResult,
  annotations: { destructive: true },
  given: WITH_COLUMNS_SLIDE,
  example: { slideId: 'two-columns-3', blockId: 'b3', columns: [1], baseRevision: 1 },
  run: (ctx, input: TableInput & { columns: number[] }) =>
    editTable(ctx, input, (rows, table) => {
      const width = rows[0]?.length ?? 0
      const removed = checkRemoval(input.columns, width, 'columns')
      const widths = table.columnWidths as number[] | undefined
      if (widths && widths.length === width) table.columnWidths = widths.filter((_, i) => !removed.has(i))
      else delete table.columnWidths
      return rows.map((row) => row.filter((_, i) => !removed.has(i)))
    }),
})

export const tableSetCell = defineAction({
  id: 'table.setCell',
  label: 'Set table cell',
  doc: 'Replaces the text of one table cell (a Text, inline marks included).',
  group: 'block',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId,
    blockId: tableBlock,
    row: int({ minimum: 0, description: 'Row index (0-based).' }),
    column: int({ minimum: 0, description: 'Column index (0-based).' }),
    text: str({ description: 'The new cell text.' }),
    baseRevision: BR,
  }),
  output: tableResult,
  cli: 'table set-cell <slideId>#<blockId> <row> <column> <text>',
  mcp: 'deck_set_table_cell',
  human: humanResult,
  annotations: { idempotent: true },
  given: WITH_COLUMNS_SLIDE,
  example: { slideId: 'two-columns-3', blockId: 'b3', row: 1, column: 1, text: '1 day', baseRevision: 1 },
  run: (ctx, input: TableInput & { row: number; column: number; text: string }) =>
    editTable(ctx, input, (rows) => {
      if (input.row >= rows.length) fail('not_found', `The table has ${rows.length} rows; there is no row ${input.row}.`, { pointer: '/row' })
      if (input.column >= rows[input.row].length) fail('not_found', `The table has ${rows[input.row].length} columns; there is no column ${input.column}.`, { pointer: '/column' })
      rows[input.row][input.column] = input.text
      return rows
    }),
})
