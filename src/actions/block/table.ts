import { defineAction } from '../../core/action.js'
import { arr, BR, int, obj, opt, outline, str } from '../../model/schema.js'
import { blockId, slideId } from './common.js'

const tableBlock = { ...blockId, description: 'The table block.' }
const tableResult = outline({ block: 'The table block after the write.', revision: 'The new revision.' })
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
  example: { slideId: 'table-5', blockId: 'b1', at: 2, count: 1, baseRevision: 3 },
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
  annotations: { destructive: true },
  example: { slideId: 'table-5', blockId: 'b1', rows: [3], baseRevision: 3 },
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
  example: { slideId: 'table-5', blockId: 'b1', count: 1, baseRevision: 3 },
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
  annotations: { destructive: true },
  example: { slideId: 'table-5', blockId: 'b1', columns: [0], baseRevision: 3 },
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
  annotations: { idempotent: true },
  example: { slideId: 'table-5', blockId: 'b1', row: 1, column: 2, text: '42%', baseRevision: 3 },
})
