/**
 * The largest free rectangle of a region: where a new object lands when no box is named
 * (shader.insert). Pure geometry on the 8 px grid.
 */
import type { Box } from './boxes.js'

/**
 * The largest axis-aligned rectangle inside `region` that overlaps none of `taken`, on a grid of
 * `cell` px (the region's edges snapped inwards to it). Cells are marked taken when any obstacle
 * covers part of them; the rectangle is the largest of the per-row histograms (the classic
 * largest-rectangle-in-a-histogram sweep, linear in the cells). Undefined when every cell is taken.
 */
export function largestFreeRect(region: Box, taken: Box[], cell = 8): Box | undefined {
  const x0 = Math.ceil(region.x / cell) * cell
  const y0 = Math.ceil(region.y / cell) * cell
  const cols = Math.floor((region.x + region.w - x0) / cell)
  const rows = Math.floor((region.y + region.h - y0) / cell)
  if (cols <= 0 || rows <= 0) return undefined
  const free: boolean[][] = Array.from({ length: rows }, () => new Array<boolean>(cols).fill(true))
  for (const box of taken) {
    const c0 = Math.max(0, Math.floor((box.x - x0) / cell))
    const c1 = Math.min(cols, Math.ceil((box.x + box.w - x0) / cell))
    const r0 = Math.max(0, Math.floor((box.y - y0) / cell))
    const r1 = Math.min(rows, Math.ceil((box.y + box.h - y0) / cell))
    for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) free[r][c] = false
  }
  const heights = new Array<number>(cols).fill(0)
  let best: { area: number; box: Box } | undefined
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) heights[c] = free[r][c] ? heights[c] + 1 : 0
    const stack: number[] = []
    for (let c = 0; c <= cols; c++) {
      const h = c < cols ? heights[c] : 0
      while (stack.length && heights[stack[stack.length - 1]] >= h) {
        const top = stack.pop()!
        const height = heights[top]
        const left = stack.length ? stack[stack.length - 1] + 1 : 0
        const width = c - left
        const area = width * height
        if (height && (!best || area > best.area)) best = { area, box: { x: x0 + left * cell, y: y0 + (r - height + 1) * cell, w: width * cell, h: height * cell } }
      }
      stack.push(c)
    }
  }
  return best?.box
}
