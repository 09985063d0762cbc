/**
 * The 13 shape presets (shapes and picture masks) as SVG path data in a w × h box, and the line preset.
 * A circle is the largest circle centred in the box; every other preset fills the box.
 */
const r2 = (v: number) => Math.round(v * 100) / 100

function polygon(points: [number, number][], w: number, h: number): string {
  return points.map(([x, y], i) => `${i ? 'L' : 'M'}${r2(x * w)} ${r2(y * h)}`).join(' ') + ' Z'
}

function regular(sides: number, w: number, h: number, rotation = -Math.PI / 2): string {
  const pts: [number, number][] = []
  for (let i = 0; i < sides; i++) {
    const a = rotation + (i * 2 * Math.PI) / sides
    pts.push([0.5 + 0.5 * Math.cos(a), 0.5 + 0.5 * Math.sin(a)])
  }
  return polygon(pts, w, h)
}

function ellipse(cx: number, cy: number, rx: number, ry: number): string {
  return `M${r2(cx - rx)} ${r2(cy)} A${r2(rx)} ${r2(ry)} 0 1 0 ${r2(cx + rx)} ${r2(cy)} A${r2(rx)} ${r2(ry)} 0 1 0 ${r2(cx - rx)} ${r2(cy)} Z`
}

export const SHAPE_PRESETS = ['rect', 'rounded', 'ellipse', 'circle', 'triangle', 'diamond', 'pentagon', 'hexagon', 'octagon', 'star', 'arrow', 'chevron', 'heart'] as const

/** Path data of a preset in a w × h box (rect for an unknown name). */
export function shapePath(shape: string, w: number, h: number): string {
  switch (shape) {
    case 'rounded': {
      const r = Math.min(w, h) * 0.12
      return `M${r2(r)} 0 H${r2(w - r)} Q${r2(w)} 0 ${r2(w)} ${r2(r)} V${r2(h - r)} Q${r2(w)} ${r2(h)} ${r2(w - r)} ${r2(h)} H${r2(r)} Q0 ${r2(h)} 0 ${r2(h - r)} V${r2(r)} Q0 0 ${r2(r)} 0 Z`
    }
    case 'ellipse':
      return ellipse(w / 2, h / 2, w / 2, h / 2)
    case 'circle': {
      const r = Math.min(w, h) / 2
      return ellipse(w / 2, h / 2, r, r)
    }
    case 'triangle':
      return polygon([[0.5, 0], [1, 1], [0, 1]], w, h)
    case 'diamond':
      return polygon([[0.5, 0], [1, 0.5], [0.5, 1], [0, 0.5]], w, h)
    case 'pentagon':
      return regular(5, w, h)
    case 'hexagon':
      return polygon([[0.25, 0], [0.75, 0], [1, 0.5], [0.75, 1], [0.25, 1], [0, 0.5]], w, h)
    case 'octagon':
      return polygon([[0.29, 0], [0.71, 0], [1, 0.29], [1, 0.71], [0.71, 1], [0.29, 1], [0, 0.71], [0, 0.29]], w, h)
    case 'star': {
      const pts: [number, number][] = []
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5
        const r = i % 2 ? 0.19 : 0.5
        pts.push([0.5 + r * Math.cos(a), 0.52 + r * Math.sin(a)])
      }
      return polygon(pts, w, h)
    }
    case 'arrow':
      return polygon([[0, 0.3], [0.62, 0.3], [0.62, 0], [1, 0.5], [0.62, 1], [0.62, 0.7], [0, 0.7]], w, h)
    case 'chevron':
      return polygon([[0, 0], [0.7, 0], [1, 0.5], [0.7, 1], [0, 1], [0.3, 0.5]], w, h)
    case 'heart':
      return (
        `M${r2(w * 0.5)} ${r2(h * 0.95)} C${r2(w * 0.1)} ${r2(h * 0.68)} 0 ${r2(h * 0.45)} 0 ${r2(h * 0.28)} ` +
        `C0 ${r2(h * 0.1)} ${r2(w * 0.14)} 0 ${r2(w * 0.28)} 0 C${r2(w * 0.4)} 0 ${r2(w * 0.47)} ${r2(h * 0.08)} ${r2(w * 0.5)} ${r2(h * 0.17)} ` +
        `C${r2(w * 0.53)} ${r2(h * 0.08)} ${r2(w * 0.6)} 0 ${r2(w * 0.72)} 0 C${r2(w * 0.86)} 0 ${r2(w)} ${r2(h * 0.1)} ${r2(w)} ${r2(h * 0.28)} ` +
        `C${r2(w)} ${r2(h * 0.45)} ${r2(w * 0.9)} ${r2(h * 0.68)} ${r2(w * 0.5)} ${r2(h * 0.95)} Z`
      )
    default:
      return `M0 0 H${r2(w)} V${r2(h)} H0 Z`
  }
}

/** A CSS clip-path cutting a w × h element to a mask preset ('none' for rect). */
export function maskClip(mask: unknown, w: number, h: number): string | undefined {
  if (typeof mask !== 'string' || mask === 'rect') return undefined
  return `path('${shapePath(mask, w, h)}')`
}
