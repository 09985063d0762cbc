/**
 * The inspector: every property the model has for the selected block's kind (from the block schemas
 * the server hands the page), each written with one action: block.set for a member, block.setAlt for
 * alt text (on the asset for a picture), block.nudge / block.resize / block.rotate / block.lock for
 * the box, table.setCell for a table cell, chart.setData for a chart's data. With nothing selected it
 * shows the slide (layout, skip, background) and the deck (theme, slide numbers).
 */
import { useEffect, useState } from 'preact/hooks'
import { call } from './api.js'
import { arrange, findBlock, nudge, resize, rotate, setBlockMember, setLayout, skipSlides } from './commands.js'
import { layoutName, LayoutPicker } from './layouts.js'
import { useModel, type JsonSchema } from './model.js'
import { Menu } from './editor.js'
import { messageOf, store, type Block } from './store.js'

/** Members the inspector does not list as plain fields (edited elsewhere, or set by the engine). */
const HANDLED = new Set(['id', 'kind', 'slot', 'pos', 'z', 'angle', 'alt', 'text', 'items', 'rows', 'data', 'locked', 'from', 'to'])

export function Inspector() {
  const { doc, current, selection, views } = store.state
  const model = useModel()
  if (!doc || !current) return <p class="meta">No slide.</p>
  const slide = doc.slides[current]
  if (!slide) return null
  const view = views.get(current)
  if (selection.length > 1) {
    return (
      <div class="inspector">
        <h2>{selection.length} objects selected</h2>
        <p class="meta">Use Arrange to align, distribute, group or flip them; drag or press arrow keys to move them together.</p>
      </div>
    )
  }
  if (selection.length === 1) {
    const id = selection[0]
    const found = findBlock(doc, current, id)
    const item = view?.items.find((i) => i.id === id)
    if (typeof found === 'string' || !item) return <p class="meta">{typeof found === 'string' ? found : 'Drawing…'}</p>
    if (found.field) {
      return (
        <div class="inspector">
          <h2>Slide {found.field}</h2>
          <p class="meta">The slide's own {found.field} field: double-click it on the canvas (or press Enter on it) to edit the text in place.</p>
        </div>
      )
    }
    const block = found.block!
    const schema = model?.blockSchemas[block.kind]
    return (
      <div class="inspector" key={`${current}:${id}`}>
        <h2>
          {kindName(block.kind)} <span class="meta">{block.id}</span>
        </h2>
        <BoxFields slideId={current} block={block} box={item.box} angle={item.angle} />
        {['picture', 'shape', 'chart', 'line', 'textbox', 'shader'].includes(block.kind) ? <AltText slideId={current} block={block} alt={item.alt} missing={item.missingAlt} /> : null}
        {block.kind === 'table' ? <TableCells slideId={current} block={block} /> : null}
        {block.kind === 'chart' ? <ChartData slideId={current} block={block} /> : null}
        {block.kind === 'list' ? <p class="meta">Edit the items in place: Tab and Shift+Tab change an item's level.</p> : null}
        {schema?.properties ? (
          <fieldset class="props">
            <legend>Properties</legend>
            {Object.entries(schema.properties)
              .filter(([key]) => !HANDLED.has(key))
              .map(([key, prop]) => (
                <Field key={key} slideId={current} block={block} path={`/${key}`} name={key} schema={prop} value={block[key]} />
              ))}
          </fieldset>
        ) : null}
      </div>
    )
  }
  return (
    <div class="inspector">
      <h2>Slide</h2>
      <div class="field">
        <span class="label">Layout</span>
        <Menu label={layoutName(slide.layout)}>{(close) => <LayoutPicker current={slide.layout} onPick={(layout) => (close(), setLayout(current, layout))} />}</Menu>
      </div>
      <label class="field check">
        <input type="checkbox" checked={slide.skip === true} onChange={(e) => skipSlides([current], (e.target as HTMLInputElement).checked)} />
        Skip in the slideshow
      </label>
      <ColourField
        label="Background"
        value={typeof slide.background === 'string' ? slide.background : ''}
        onCommit={(value) =>
          void store.perform({ label: 'Slide background', plan: () => ({ action: 'slide.setBackground', input: { slideIds: [current], background: value ? { color: value } : null } }) })
        }
      />
      <DeckFields />
    </div>
  )
}

function kindName(kind: string): string {
  return ({ text: 'Paragraph', heading: 'Heading', list: 'List', table: 'Table', picture: 'Picture', shape: 'Shape', line: 'Line', chart: 'Chart', textbox: 'Text box', shader: 'Shader', html: 'HTML' } as Record<string, string>)[kind] ?? kind
}

function DeckFields() {
  const { doc } = store.state
  const [themes, setThemes] = useState<{ id: string; storedId: string; name: string }[]>([])
  useEffect(() => {
    call<{ themes: { id: string; storedId: string; name: string }[] }>('theme.list', {}, store.deckId).then((r) => setThemes(r.themes), () => undefined)
  }, [])
  if (!doc) return null
  const set = (label: string, path: string, value: unknown) => void store.perform({ label, plan: () => ({ action: 'deck.set', input: value === undefined ? { path } : { path, value } }) })
  return (
    <fieldset class="props">
      <legend>Deck</legend>
      <label class="field">
        <span class="label">Theme</span>
        <select value={themes.find((t) => t.storedId === doc.manifest.theme || t.id === doc.manifest.theme)?.id ?? doc.manifest.theme} onChange={(e) => set('Change theme', '/theme', (e.target as HTMLSelectElement).value)}>
          {themes.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <label class="field check">
        <input type="checkbox" checked={doc.manifest.defaults?.counter === true} onChange={(e) => set('Slide numbers', '/defaults/counter', (e.target as HTMLInputElement).checked || undefined)} />
        Slide numbers
      </label>
      <label class="field">
        <span class="label">Default appearance</span>
        <select value={doc.manifest.defaults?.appearance ?? ''} onChange={(e) => set('Default appearance', '/defaults/appearance', (e.target as HTMLSelectElement).value || undefined)}>
          <option value="">(theme default)</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
    </fieldset>
  )
}

function BoxFields({ slideId, block, box, angle }: { slideId: string; block: Block; box: { x: number; y: number; w: number; h: number }; angle: number }) {
  const r = (n: number) => Math.round(n * 10) / 10
  return (
    <fieldset class="props box">
      <legend>Position and size (sheet px)</legend>
      <NumberField label="X" value={r(box.x)} onCommit={(v) => v !== undefined && void nudge(slideId, [block.id], v - box.x, 0)} />
      <NumberField label="Y" value={r(box.y)} onCommit={(v) => v !== undefined && void nudge(slideId, [block.id], 0, v - box.y)} />
      <NumberField label="Width" value={r(box.w)} min={1} onCommit={(v) => v && void resize(slideId, block.id, v, box.h, 'top-left')} />
      <NumberField label="Height" value={r(box.h)} min={1} onCommit={(v) => v && void resize(slideId, block.id, box.w, v, 'top-left')} />
      <NumberField label="Angle" value={r(angle)} min={0} max={359.9} onCommit={(v) => v !== undefined && void rotate(slideId, [block.id], v)} />
      <label class="field check">
        <input type="checkbox" checked={block.locked === true} onChange={(e) => void arrange('Lock', slideId, [block.id], 'block.lock', { blockIds: [block.id], locked: (e.target as HTMLInputElement).checked })} />
        Locked
      </label>
    </fieldset>
  )
}

function AltText({ slideId, block, alt, missing }: { slideId: string; block: Block; alt: string; missing: boolean }) {
  const [value, setValue] = useState(alt)
  useEffect(() => setValue(alt), [alt])
  const commit = () => {
    if (value === alt) return
    void store.perform({ label: 'Alt text', plan: (d) => (typeof findBlock(d, slideId, block.id) === 'string' ? `${block.id} is gone.` : { action: 'block.setAlt', input: { slideId, blockId: block.id, alt: value } }) })
  }
  return (
    <div class="field">
      <label for="alt-text">Alt text{block.kind === 'picture' ? ' (kept on the picture’s asset)' : ''}</label>
      {missing ? (
        <p class="warning" id="alt-missing">
          Missing: describe this {block.kind} for people who cannot see it.
        </p>
      ) : null}
      <textarea id="alt-text" rows={3} value={value} aria-describedby={missing ? 'alt-missing' : undefined} onInput={(e) => setValue((e.target as HTMLTextAreaElement).value)} onBlur={commit} />
    </div>
  )
}

function TableCells({ slideId, block }: { slideId: string; block: Block }) {
  const rows = (block.rows ?? []) as string[][]
  const set = (row: number, column: number, text: string) =>
    void store.perform({ label: 'Edit cell', plan: (d) => (typeof findBlock(d, slideId, block.id) === 'string' ? `${block.id} is gone.` : { action: 'table.setCell', input: { slideId, blockId: block.id, row, column, text } }) })
  return (
    <fieldset class="props">
      <legend>Cells</legend>
      <table class="grid">
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td key={c}>
                  <TextCell label={`Row ${r + 1}, column ${c + 1}`} value={cell} onCommit={(v) => set(r, c, v)} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div class="row">
        <button type="button" onClick={() => void arrange('Add row', slideId, [block.id], 'table.insertRows', { blockId: block.id, at: rows.length, count: 1 })}>
          Add row
        </button>
        <button type="button" onClick={() => void arrange('Add column', slideId, [block.id], 'table.insertColumns', { blockId: block.id, at: rows[0]?.length ?? 0, count: 1 })}>
          Add column
        </button>
      </div>
    </fieldset>
  )
}

function ChartData({ slideId, block }: { slideId: string; block: Block }) {
  const data = (block.data ?? { categories: [], series: [] }) as { categories: string[]; series: { name: string; values: (number | null)[] }[] }
  const write = (next: typeof data) =>
    void store.perform({ label: 'Chart data', plan: (d) => (typeof findBlock(d, slideId, block.id) === 'string' ? `${block.id} is gone.` : { action: 'chart.setData', input: { slideId, blockId: block.id, data: next } }) })
  return (
    <fieldset class="props">
      <legend>Chart data</legend>
      <table class="grid">
        <thead>
          <tr>
            <th scope="col">Series</th>
            {data.categories.map((c, i) => (
              <th key={i} scope="col">
                <TextCell label={`Category ${i + 1}`} value={c} onCommit={(v) => write({ ...data, categories: data.categories.map((x, j) => (j === i ? v : x)) })} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.series.map((s, si) => (
            <tr key={si}>
              <th scope="row">
                <TextCell label={`Series ${si + 1} name`} value={s.name} onCommit={(v) => write({ ...data, series: data.series.map((x, j) => (j === si ? { ...x, name: v } : x)) })} />
              </th>
              {data.categories.map((_, ci) => (
                <td key={ci}>
                  <TextCell
                    label={`${s.name}, ${data.categories[ci]}`}
                    value={s.values[ci] === null || s.values[ci] === undefined ? '' : String(s.values[ci])}
                    onCommit={(v) => {
                      const n = v.trim() === '' ? null : Number(v)
                      if (n !== null && !Number.isFinite(n)) return store.say('A chart value is a number, or empty for none.', 'error')
                      write({ ...data, series: data.series.map((x, j) => (j === si ? { ...x, values: data.categories.map((__, k) => (k === ci ? n : (x.values[k] ?? null))) } : x)) })
                    }}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div class="row">
        <button type="button" onClick={() => write({ categories: [...data.categories, `Category ${data.categories.length + 1}`], series: data.series.map((s) => ({ ...s, values: [...s.values, null] })) })}>
          Add category
        </button>
        <button type="button" onClick={() => write({ ...data, series: [...data.series, { name: `Series ${data.series.length + 1}`, values: data.categories.map(() => null) }] })}>
          Add series
        </button>
      </div>
    </fieldset>
  )
}

function TextCell({ label, value, onCommit }: { label: string; value: string; onCommit: (v: string) => void }) {
  const [v, setV] = useState(value)
  useEffect(() => setV(value), [value])
  return <input aria-label={label} value={v} onInput={(e) => setV((e.target as HTMLInputElement).value)} onBlur={() => v !== value && onCommit(v)} onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()} />
}

function NumberField({ label, value, min, max, onCommit }: { label: string; value: number | undefined; min?: number; max?: number; onCommit: (v: number | undefined) => void }) {
  const [v, setV] = useState(value === undefined ? '' : String(value))
  useEffect(() => setV(value === undefined ? '' : String(value)), [value])
  const commit = () => {
    const n = v.trim() === '' ? undefined : Number(v)
    if (n !== undefined && !Number.isFinite(n)) return setV(value === undefined ? '' : String(value))
    if (n !== value) onCommit(n)
  }
  return (
    <label class="field num">
      <span class="label">{label}</span>
      <input type="number" step="any" min={min} max={max} value={v} onInput={(e) => setV((e.target as HTMLInputElement).value)} onBlur={commit} onKeyDown={(e) => e.key === 'Enter' && commit()} />
    </label>
  )
}

function ColourField({ label, value, onCommit }: { label: string; value: string; onCommit: (v: string) => void }) {
  const [v, setV] = useState(value)
  useEffect(() => setV(value), [value])
  return (
    <label class="field">
      <span class="label">{label}</span>
      <input value={v} placeholder="a token (accent, muted…) or #rrggbb; empty for the default" onInput={(e) => setV((e.target as HTMLInputElement).value)} onBlur={() => v !== value && onCommit(v.trim())} onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()} />
    </label>
  )
}

/** One member of a block, by its schema: a choice, a switch, a number, a string, or a group of members. */
function Field({ slideId, block, path, name, schema, value }: { slideId: string; block: Block; path: string; name: string; schema: JsonSchema; value: unknown }) {
  const write = (v: unknown) => void setBlockMember(slideId, block.id, path, v).catch((e) => store.say(messageOf(e), 'error'))
  const label = name.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase())
  if (schema.anyOf) {
    // A member of several shapes (a link: a URL or a slide): edited as JSON.
    return <JsonField label={label} value={value} onCommit={write} />
  }
  if (schema.enum || schema.const !== undefined) {
    const options = schema.enum ?? [schema.const]
    return (
      <label class="field">
        <span class="label">{label}</span>
        <select value={value === undefined ? '' : String(value)} onChange={(e) => write((e.target as HTMLSelectElement).value === '' ? undefined : options.find((o) => String(o) === (e.target as HTMLSelectElement).value))}>
          <option value="">(default)</option>
          {options.map((o) => (
            <option key={String(o)} value={String(o)}>
              {String(o)}
            </option>
          ))}
        </select>
      </label>
    )
  }
  if (schema.type === 'boolean') {
    return (
      <label class="field check">
        <input type="checkbox" checked={value === true} onChange={(e) => write((e.target as HTMLInputElement).checked ? true : undefined)} />
        {label}
      </label>
    )
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    return <NumberField label={label} value={typeof value === 'number' ? value : undefined} min={schema.minimum} max={schema.maximum} onCommit={write} />
  }
  if (schema.type === 'object' && schema.properties) {
    const obj = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>
    return (
      <fieldset class="props nested">
        <legend>{label}</legend>
        {Object.entries(schema.properties).map(([key, prop]) => (
          <Field key={key} slideId={slideId} block={block} path={`${path}/${key}`} name={key} schema={prop} value={obj[key]} />
        ))}
        {value !== undefined ? (
          <button type="button" class="quiet" onClick={() => write(undefined)}>
            Remove {label.toLowerCase()}
          </button>
        ) : null}
      </fieldset>
    )
  }
  if (schema.type === 'object' || schema.type === 'array') return <JsonField label={label} value={value} onCommit={write} />
  return (
    <label class="field">
      <span class="label">{label}</span>
      <TextCell label={label} value={typeof value === 'string' ? value : ''} onCommit={(v) => write(v === '' ? undefined : v)} />
    </label>
  )
}

function JsonField({ label, value, onCommit }: { label: string; value: unknown; onCommit: (v: unknown) => void }) {
  const text = value === undefined ? '' : JSON.stringify(value)
  const [v, setV] = useState(text)
  useEffect(() => setV(text), [text])
  return (
    <label class="field">
      <span class="label">{label} (JSON)</span>
      <textarea
        rows={2}
        value={v}
        onInput={(e) => setV((e.target as HTMLTextAreaElement).value)}
        onBlur={() => {
          if (v === text) return
          if (!v.trim()) return onCommit(undefined)
          try {
            onCommit(JSON.parse(v))
          } catch {
            store.say(`${label}: not valid JSON.`, 'error')
          }
        }}
      />
    </label>
  )
}
