/**
 * Command-line forms of the comment actions: the anchor's text forms, and `-m <text>` with
 * `--mention <who>` building the body object.
 */
import type { CliParsed } from '../../core/action.js'
import { whoOf } from '../share/cli.js'

type Fields = Record<string, unknown>

const CELL = /^([^#]+)#([^/]+)\/cell:(\d+),(\d+)$/
const RANGE = /^([^#]+)#([^/]+)(\/.*):(\d+)-(\d+)$/
const BLOCK = /^([^#/]+)#([^/]+)$/

/**
 * `deck`, `slide:<id>`, `<slide>#<block>`, `<slide>#<block>/<path>:<start>-<end>`,
 * `<slide>#<block>/cell:<r>,<c>`, `notes:<slide>` as an anchor object; other values unchanged.
 */
export function anchorOf(text: unknown): unknown {
  if (typeof text !== 'string') return text
  const value = text.trim()
  if (value === 'deck') return { kind: 'deck' }
  if (value.startsWith('slide:')) return { kind: 'slide', slideId: value.slice(6) }
  if (value.startsWith('notes:')) return { kind: 'notes', slideId: value.slice(6) }
  let m = CELL.exec(value)
  if (m) return { kind: 'cell', slideId: m[1], blockId: m[2], row: Number(m[3]), col: Number(m[4]) }
  m = RANGE.exec(value)
  if (m) return { kind: 'range', slideId: m[1], blockId: m[2], path: m[3], range: [Number(m[4]), Number(m[5])] }
  m = BLOCK.exec(value)
  if (m) return { kind: 'block', slideId: m[1], blockId: m[2] }
  return value
}

/** The body from `-m <text>` and `--mention <who>` (comma-separated for several). */
export function bodyOf(parsed: CliParsed): Fields {
  const { m, mention } = parsed.flags
  const mentions = typeof mention === 'string' ? mention.split(',').map((who) => whoOf(who)) : undefined
  if (m === undefined && !mentions) return parsed.input
  const prior = (parsed.input.body ?? {}) as Fields
  return { ...parsed.input, body: { ...prior, ...(m !== undefined ? { text: m } : {}), ...(mentions ? { mentions } : {}) } }
}
