/** The layout menu: every layout with a preview of its slots (the boxes geometry gives each). */
import { useModel } from './model.js'

const NAMES: Record<string, string> = {
  title: 'Title', section: 'Section header', 'title-body': 'Title and body', 'title-only': 'Title only', 'two-columns': 'Two columns',
  'three-columns': 'Three columns', comparison: 'Comparison', 'main-point': 'Main point', 'big-number': 'Big number', quote: 'Quote',
  'picture-caption': 'Picture with caption', 'picture-full': 'Full picture', 'picture-left': 'Picture left', agenda: 'Agenda',
  timeline: 'Timeline', table: 'Table', chart: 'Chart', grid: 'Grid', statement: 'Statement', closing: 'Closing', blank: 'Blank', freeform: 'Canvas (freeform)',
}

export function layoutName(id: string): string {
  return NAMES[id] ?? id
}

export function LayoutPicker({ current, onPick }: { current?: string; onPick: (layout: string) => void }) {
  const model = useModel()
  if (!model) return <p>Loading layouts…</p>
  return (
    <ul class="layouts">
      {model.layouts.map((layout) => (
        <li key={layout.id}>
          <button type="button" class="layout" aria-pressed={current === layout.id} data-layout={layout.id} onClick={() => onPick(layout.id)}>
            <svg viewBox="0 0 1600 900" width="96" height="54" aria-hidden="true">
              <rect x="0" y="0" width="1600" height="900" class="layout-sheet" />
              {Object.entries(layout.slots)
                .filter(([slot]) => slot !== 'footer')
                .map(([slot, b]) => (
                  <rect key={slot} x={b.x} y={b.y} width={b.w} height={b.h} class={`layout-slot s-${slot}`} />
                ))}
              {layout.id === 'freeform' ? <rect x="500" y="250" width="600" height="400" class="layout-slot free" /> : null}
            </svg>
            <span>{layoutName(layout.id)}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}
