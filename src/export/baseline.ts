/**
 * Where LibreOffice puts the first baseline of a text box with exact line spacing, against where the
 * renderer (Chromium) puts it: the shift, in sheet px, that moves a native PPTX text box so its
 * first line lands where the renderer's does (`baseline: 'libreoffice'`, export.run's default).
 *
 * Chromium centres a line's glyphs in its line box (half the leading above, half below); LibreOffice
 * gives a line of fixed height all its leading above the glyphs, and sits a few hundredths of an em
 * lower besides. Measured by scripts/export/measure-baseline.ts (LibreOffice 7.4, the shipped faces,
 * sizes 14–120 px, line heights 1–2, weights 400 and 700; docs/export.md) the shift is
 *
 *   shift = size × (c − (lineHeight − 1) / 2)
 *
 * with c per family below (least squares over 56 boxes each; the weight makes no difference; the
 * largest residual is 0.8 px for Inter, 1.0 px for Source Serif 4, 1.6 px for JetBrains Mono, at
 * 14 px where both renderers snap to whole pixels). Line pitches agree to 0.5 px: only the first
 * line needs moving. A positive shift moves the box down.
 */
export const FIRST_LINE_EM: Record<string, number> = {
  Inter: 0.056,
  'Source Serif 4': 0.0427,
  'JetBrains Mono': 0.0579,
}

export function firstBaselineShift(family: string, _weight: number, sizePx: number, lineHeight: number): number {
  const c = FIRST_LINE_EM[family] ?? FIRST_LINE_EM.Inter
  return sizePx * (c - (lineHeight - 1) / 2)
}
