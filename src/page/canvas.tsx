/**
 * The slide canvas: the current slide as the renderer drew it, zoomed to fit, with a frame over every
 * block at the box geometry computed (the view's items). Select by click, shift-click or marquee;
 * drag to move, handles to resize, the round handle to rotate; edges and centres snap to guides, the
 * sheet and other blocks; arrow keys nudge (one write per pause). Double-click or Enter edits text in
 * place. Every change is one action: block.nudge, block.resize, block.rotate, slide.update.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { Sheet } from './sheet.js'
import { store, type Box, type SlideView, type ViewItem } from './store.js'
import { findBlock, nudge, removeBlocks, resize, rotate, writeText, arrange } from './commands.js'
import { startEditing, type TextEditor } from './textedit.js'
import { sendPresence } from './room.js'
import { useModel } from './model.js'
import { Prompts, slotPrompts } from './prompts.js'
import { Pins } from './comments.js'

const TEXT_KINDS = new Set(['text', 'heading', 'textbox', 'shape', 'list'])
const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'] as const
type Handle = (typeof HANDLES)[number]
const ANCHOR: Record<Handle, string> = { nw: 'bottom-right', n: 'bottom', ne: 'bottom-left', e: 'left', se: 'top-left', s: 'top', sw: 'top-right', w: 'right' }
/** Snapping reach in screen pixels. */
const SNAP_PX = 6
/** Coalescing pause for keyboard nudges and typing, ms. */
export const PAUSE_MS = 600

interface Drag {
  kind: 'move' | 'resize' | 'rotate' | 'marquee'
  startX: number
  startY: number
  ids: string[]
  handle?: Handle
  box?: Box
  moved: boolean
}

interface Preview {
  dx?: number
  dy?: number
  box?: Box
  angle?: number
  marquee?: Box
  lines: { x?: number; y?: number }[]
}

function union(boxes: Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x))
  const y = Math.min(...boxes.map((b) => b.y))
  const r = Math.max(...boxes.map((b) => b.x + b.w))
  const bt = Math.max(...boxes.map((b) => b.y + b.h))
  return { x, y, w: r - x, h: bt - y }
}

/** Snap targets: guides, the sheet's edges and centre, other blocks' edges and centres. */
function targets(items: ViewItem[], moving: Set<string>): { xs: number[]; ys: number[] } {
  const guides = store.state.doc?.manifest.guides ?? {}
  const xs = [0, 800, 1600, ...(guides.vertical ?? [])]
  const ys = [0, 450, 900, ...(guides.horizontal ?? [])]
  for (const item of items) {
    if (moving.has(item.id)) continue
    const b = item.box
    xs.push(b.x, b.x + b.w / 2, b.x + b.w)
    ys.push(b.y, b.y + b.h / 2, b.y + b.h)
  }
  return { xs, ys }
}

/** The offset that snaps the nearest of `edges` onto a target within `reach`, and the line it snapped to. */
function snap(edges: number[], candidates: number[], reach: number): { delta: number; at?: number } {
  let best: { delta: number; at?: number } = { delta: 0 }
  let bestDistance = reach
  for (const edge of edges) {
    for (const c of candidates) {
      const d = Math.abs(c - edge)
      if (d < bestDistance) {
        bestDistance = d
        best = { delta: c - edge, at: c }
      }
    }
  }
  return best
}

export function Canvas({ view }: { view: SlideView }) {
  const { doc, sheetCss, selection, editing, roster } = store.state
  const wrap = useRef<HTMLDivElement>(null)
  const rootRef = useRef<ShadowRoot | null>(null)
  const [size, setSize] = useState({ w: 960, h: 540 })
  const [preview, setPreview] = useState<Preview>({ lines: [] })
  const drag = useRef<Drag | null>(null)
  const editor = useRef<{ ed: TextEditor; id: string; base: string; timer?: number; last: string } | null>(null)
  const pendingNudge = useRef<{ dx: number; dy: number; ids: string[]; timer?: number } | null>(null)
  const slideId = view.id
  const slide = doc?.slides[slideId]
  // A viewer or commenter selects (to comment) but moves, resizes and types nothing.
  const writable = store.can('write')
  const model = useModel()

  useLayoutEffect(() => {
    const el = wrap.current!
    const observer = new ResizeObserver(() => {
      const room = { w: el.clientWidth - 32, h: el.clientHeight - 32 }
      const w = Math.max(160, Math.min(room.w, (room.h * 16) / 9))
      setSize({ w, h: (w * 9) / 16 })
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  const scale = size.w / 1600
  const items = view.items
  const byId = new Map(items.map((i) => [i.id, i]))
  const selected = selection.filter((id) => byId.has(id))
  const layout = slide && !view.canvas ? model?.layouts.find((l) => l.id === slide.layout) : undefined
  // The model's slot boxes are the layout's defaults: a slide with its own layout options outlines its blocks instead.
  const prompts = slide ? slotPrompts(slide, items, layout && !slide.layoutOptions ? layout.slots : undefined, layout?.fieldSlots) : []
  const prompted = new Set(prompts.flatMap((p) => ('edit' in p.target ? [p.target.edit] : [])))

  // -- text editing in place ------------------------------------------------------------------
  const flushText = async () => {
    const current = editor.current
    if (!current) return
    clearTimeout(current.timer)
    const value = current.ed.value()
    const text = JSON.stringify(value)
    if (text === current.last) return
    current.last = text
    const base = current.base
    current.base = text
    await writeText(slideId, current.id, value, base, () => {
      store.say('Someone else changed this text while you typed.', 'changed', {
        action: {
          label: 'Use my text',
          run: () => {
            const latest = store.state.doc ? findBlock(store.state.doc, slideId, current.id) : null
            const now = latest && typeof latest !== 'string' ? (latest.field ? store.state.doc!.slides[slideId][latest.field] : Array.isArray(value) ? latest.block!.items : latest.block!.text) : ''
            void writeText(slideId, current.id, value, JSON.stringify(now ?? ''), () => undefined)
          },
        },
      })
    })
  }

  const stopEditing = async (focusFrame = false) => {
    const current = editor.current
    if (!current) return
    await flushText()
    current.ed.destroy()
    editor.current = null
    if (store.state.editing === current.id) store.set({ editing: null })
    if (focusFrame) requestAnimationFrame(() => (wrap.current?.querySelector(`[data-frame="${CSS.escape(current.id)}"]`) as HTMLElement | null)?.focus())
  }

  useEffect(() => {
    if (!editing || editor.current?.id === editing) return
    const root = rootRef.current
    const item = byId.get(editing)
    if (!root || !item || !doc || !slide) return
    const element = root.querySelector(`[data-block="${CSS.escape(editing)}"] .t`) as HTMLElement | null
    const found = findBlock(doc, slideId, editing)
    if (!element || typeof found === 'string') {
      store.set({ editing: null })
      return
    }
    const initial = found.field ? String(slide[found.field] ?? '') : item.kind === 'list' ? (found.block!.items as { text: string; level?: number }[]) : String(found.block!.text ?? '')
    const ed = startEditing(element, initial, root)
    const base = JSON.stringify(initial)
    editor.current = { ed, id: editing, base, last: base }
    element.setAttribute('aria-label', `Text of ${item.label}`)
    element.focus()
    const sel = document.getSelection()
    sel?.selectAllChildren(element)
    sel?.collapseToEnd()
    const onInput = () => {
      const current = editor.current
      if (!current) return
      clearTimeout(current.timer)
      current.timer = window.setTimeout(() => void flushText(), PAUSE_MS)
    }
    const onKey = (event: KeyboardEvent) => textKeys(event, ed)
    const onBlur = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null
      if (next && (element.contains(next) || (next as HTMLElement).closest?.('.text-tools'))) return
      void stopEditing()
    }
    element.addEventListener('input', onInput)
    element.addEventListener('keydown', onKey)
    element.addEventListener('focusout', onBlur)
    return () => {
      element.removeEventListener('input', onInput)
      element.removeEventListener('keydown', onKey)
      element.removeEventListener('focusout', onBlur)
    }
  }, [editing, view.html])

  // Leaving the slide ends editing (and writes what was typed).
  useEffect(() => () => void stopEditing(), [slideId])

  const textKeys = (event: KeyboardEvent, ed: TextEditor) => {
    const mod = event.ctrlKey || event.metaKey
    const key = event.key.toLowerCase()
    if (event.key === 'Escape') {
      event.preventDefault()
      void stopEditing(true)
    } else if (mod && key === 'i') {
      event.preventDefault()
      ed.toggle('italic')
    } else if (mod && key === 'u') {
      event.preventDefault()
      ed.toggle('underline')
    } else if (mod && event.shiftKey && key === 'x') {
      event.preventDefault()
      ed.toggle('strike')
    } else if (mod && key === '.') {
      event.preventDefault()
      ed.toggle('superscript')
    } else if (mod && key === ',') {
      event.preventDefault()
      ed.toggle('subscript')
    } else if (mod && key === 'b') {
      event.preventDefault()
      store.say('The model has no bold mark: headings are bold, other text regular. Use a heading, or italic or underline for emphasis.')
    } else if (mod && key === 'k') {
      event.preventDefault()
      const href = prompt('Link to (https://…, mailto:…, or #slide:<id>); empty removes the link')
      if (href === null) return
      if (href && !/^(https?:\/\/|mailto:|#slide:[A-Za-z0-9][A-Za-z0-9_-]*$)/.test(href)) {
        store.say('A link is an http(s):// address, a mailto: address, or #slide:<slide id>.', 'error')
        return
      }
      ed.link(href || null)
    } else if (event.key === 'Tab') {
      if (ed.level(event.shiftKey ? -1 : 1)) event.preventDefault()
    } else if (mod && key === 's') {
      event.preventDefault()
      void flushText()
    }
  }

  // -- pointer interactions -------------------------------------------------------------------
  const toSheet = (event: PointerEvent) => {
    const rect = wrap.current!.querySelector('.canvas')!.getBoundingClientRect()
    return { x: (event.clientX - rect.left) / scale, y: (event.clientY - rect.top) / scale }
  }

  const groupOf = (id: string): string[] => {
    const group = byId.get(id)?.group
    return group ? items.filter((i) => i.group === group).map((i) => i.id) : [id]
  }

  const blockElements = (ids: string[]) => {
    const root = rootRef.current
    return root ? ids.flatMap((id) => [...root.querySelectorAll<HTMLElement>(`[data-block="${CSS.escape(id)}"]`)]) : []
  }

  const onFramePointerDown = (event: PointerEvent, id: string) => {
    if (event.button !== 0 || editing === id) return
    event.stopPropagation()
    const members = groupOf(id)
    let next: string[]
    if (event.shiftKey) next = selection.includes(id) ? selection.filter((s) => !members.includes(s)) : [...selection, ...members.filter((m) => !selection.includes(m))]
    else if (selection.includes(id)) next = selection.length === members.length && members.length > 1 && members.every((m) => selection.includes(m)) ? [id] : selection
    else next = members
    if (editing) void stopEditing()
    store.set({ selection: next })
    sendPresence({ selection: next })
    const at = toSheet(event)
    const locked = next.some((s) => byId.get(s)?.locked)
    if (!locked && writable && next.includes(id)) drag.current = { kind: 'move', startX: at.x, startY: at.y, ids: next, moved: false }
    ;(event.currentTarget as HTMLElement).setPointerCapture(event.pointerId)
  }

  const onHandlePointerDown = (event: PointerEvent, handle: Handle | 'rotate') => {
    event.stopPropagation()
    const item = byId.get(selected[0])
    if (!item || item.locked) return
    const at = toSheet(event)
    drag.current = handle === 'rotate' ? { kind: 'rotate', startX: at.x, startY: at.y, ids: [item.id], box: item.box, moved: false } : { kind: 'resize', startX: at.x, startY: at.y, ids: [item.id], handle, box: item.box, moved: false }
    ;(event.currentTarget as HTMLElement).setPointerCapture(event.pointerId)
  }

  const onBackgroundPointerDown = (event: PointerEvent) => {
    if (event.button !== 0) return
    if (editing) void stopEditing()
    const at = toSheet(event)
    drag.current = { kind: 'marquee', startX: at.x, startY: at.y, ids: [], moved: false }
    if (!event.shiftKey) store.set({ selection: [] })
    ;(event.currentTarget as HTMLElement).setPointerCapture(event.pointerId)
  }

  const onPointerMove = (event: PointerEvent) => {
    const at = toSheet(event)
    sendPresence({ pointer: { x: Math.round(at.x), y: Math.round(at.y) } })
    const d = drag.current
    if (!d) return
    const dx = at.x - d.startX
    const dy = at.y - d.startY
    if (!d.moved && Math.hypot(dx * scale, dy * scale) < 3) return
    d.moved = true
    const reach = SNAP_PX / scale
    const snapping = !event.altKey
    if (d.kind === 'move') {
      const box = union(d.ids.map((id) => byId.get(id)!.box))
      const t = targets(items, new Set(d.ids))
      const sx = snapping ? snap([box.x + dx, box.x + dx + box.w / 2, box.x + dx + box.w], t.xs, reach) : { delta: 0 }
      const sy = snapping ? snap([box.y + dy, box.y + dy + box.h / 2, box.y + dy + box.h], t.ys, reach) : { delta: 0 }
      const mx = dx + sx.delta
      const my = dy + sy.delta
      for (const el of blockElements(d.ids)) el.style.translate = `${mx}px ${my}px`
      setPreview({ dx: mx, dy: my, lines: [...(sx.at !== undefined ? [{ x: sx.at }] : []), ...(sy.at !== undefined ? [{ y: sy.at }] : [])] })
    } else if (d.kind === 'resize') {
      const item = byId.get(d.ids[0])!
      const box = resized(d.box!, d.handle!, dx, dy, item.angle, event.shiftKey)
      const lines: { x?: number; y?: number }[] = []
      if (snapping && !item.angle) {
        const t = targets(items, new Set(d.ids))
        const h = d.handle!
        if (h.includes('e')) {
          const s = snap([box.x + box.w], t.xs, reach)
          box.w += s.delta
          if (s.at !== undefined) lines.push({ x: s.at })
        } else if (h.includes('w')) {
          const s = snap([box.x], t.xs, reach)
          box.x += s.delta
          box.w -= s.delta
          if (s.at !== undefined) lines.push({ x: s.at })
        }
        if (h.includes('s')) {
          const s = snap([box.y + box.h], t.ys, reach)
          box.h += s.delta
          if (s.at !== undefined) lines.push({ y: s.at })
        } else if (h.includes('n')) {
          const s = snap([box.y], t.ys, reach)
          box.y += s.delta
          box.h -= s.delta
          if (s.at !== undefined) lines.push({ y: s.at })
        }
      }
      setPreview({ box, lines })
    } else if (d.kind === 'rotate') {
      const b = d.box!
      const cx = b.x + b.w / 2
      const cy = b.y + b.h / 2
      let angle = (Math.atan2(at.y - cy, at.x - cx) * 180) / Math.PI + 90
      angle = ((angle % 360) + 360) % 360
      if (event.shiftKey) angle = Math.round(angle / 15) * 15
      else for (const right of [0, 90, 180, 270, 360]) if (Math.abs(angle - right) < 4) angle = right
      angle %= 360
      for (const el of blockElements(d.ids)) el.style.rotate = `${angle - (byId.get(d.ids[0])?.angle ?? 0)}deg`
      setPreview({ angle, lines: [] })
    } else {
      const box = { x: Math.min(d.startX, at.x), y: Math.min(d.startY, at.y), w: Math.abs(dx), h: Math.abs(dy) }
      setPreview({ marquee: box, lines: [] })
    }
  }

  const onPointerUp = async (event: PointerEvent) => {
    const d = drag.current
    drag.current = null
    if (!d) return
    const p = preview
    const reset = () => {
      for (const el of blockElements(d.ids)) {
        el.style.translate = ''
        el.style.rotate = ''
      }
      setPreview({ lines: [] })
    }
    if (!d.moved) {
      reset()
      // A click on an empty text block's prompt puts the caret in it, as in other editors.
      if (d.kind === 'move' && d.ids.length === 1 && prompted.has(d.ids[0]) && !event.shiftKey) store.set({ selection: d.ids, editing: d.ids[0] })
      return
    }
    if (d.kind === 'marquee' && p.marquee) {
      const m = p.marquee
      const hit = items.filter((i) => i.box.x < m.x + m.w && i.box.x + i.box.w > m.x && i.box.y < m.y + m.h && i.box.y + i.box.h > m.y).map((i) => i.id)
      const next = event.shiftKey ? [...new Set([...selection, ...hit])] : hit
      store.set({ selection: next })
      sendPresence({ selection: next })
      reset()
      return
    }
    setPreview({ ...p, lines: [] })
    if (d.kind === 'move' && (p.dx || p.dy)) await nudge(slideId, d.ids, p.dx ?? 0, p.dy ?? 0)
    else if (d.kind === 'resize' && p.box) await resize(slideId, d.ids[0], p.box.w, p.box.h, ANCHOR[d.handle!])
    else if (d.kind === 'rotate' && p.angle !== undefined) await rotate(slideId, d.ids, p.angle)
    reset()
  }

  // -- keyboard on frames ---------------------------------------------------------------------
  const flushNudge = () => {
    const n = pendingNudge.current
    pendingNudge.current = null
    if (n && (n.dx || n.dy)) {
      for (const el of blockElements(n.ids)) el.style.translate = ''
      void nudge(slideId, n.ids, n.dx, n.dy)
    }
  }

  const onFrameKey = (event: KeyboardEvent, item: ViewItem) => {
    const mod = event.ctrlKey || event.metaKey
    const ids = selection.includes(item.id) ? selection : [item.id]
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }
    if (!writable && event.key !== ' ' && event.key !== 'Escape') return
    if (arrows[event.key] && !mod) {
      event.preventDefault()
      if (ids.some((id) => byId.get(id)?.locked)) return store.say('Locked objects do not move; unlock them in the inspector.')
      const step = event.shiftKey ? 10 : 1
      const [ax, ay] = arrows[event.key]
      const n = pendingNudge.current ?? { dx: 0, dy: 0, ids }
      n.dx += ax * step
      n.dy += ay * step
      clearTimeout(n.timer)
      n.timer = window.setTimeout(flushNudge, PAUSE_MS)
      pendingNudge.current = n
      store.set({ selection: ids })
      for (const el of blockElements(ids)) el.style.translate = `${n.dx}px ${n.dy}px`
      return
    }
    if (event.key === 'Enter' || event.key === 'F2') {
      event.preventDefault()
      if (TEXT_KINDS.has(item.kind)) store.set({ selection: [item.id], editing: item.id })
      return
    }
    if (event.key === ' ') {
      event.preventDefault()
      const next = event.shiftKey ? (selection.includes(item.id) ? selection.filter((s) => s !== item.id) : [...selection, item.id]) : [item.id]
      store.set({ selection: next })
      return
    }
    if (event.key === 'Escape') {
      store.set({ selection: [] })
      return
    }
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault()
      removeBlocks(slideId, ids)
      return
    }
    if (mod && event.key.toLowerCase() === 'd') {
      event.preventDefault()
      void arrange('Duplicate', slideId, ids, 'block.duplicate', { blockIds: ids })
      return
    }
    if (mod && event.key.toLowerCase() === 'g') {
      event.preventDefault()
      if (event.shiftKey) void arrange('Ungroup', slideId, ids, 'block.ungroup', { blockIds: ids })
      else if (ids.length > 1) void arrange('Group', slideId, ids, 'block.group', { blockIds: ids })
    }
  }

  useEffect(() => () => flushNudge(), [slideId])

  const px = (n: number) => `${n * scale}px`
  const one = selected.length === 1 ? byId.get(selected[0]) : undefined
  const frameBox = (item: ViewItem): Box => {
    if (item.id !== one?.id) return item.box
    return preview.box ?? item.box
  }

  return (
    <div class="canvas-wrap" ref={wrap}>
      <div
        class="canvas"
        style={{ width: `${size.w}px`, height: `${size.h}px` }}
        data-slide={slideId}
        data-revision={doc?.manifest.revision}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => sendPresence({ pointer: null })}
      >
        <Sheet
          key={slideId}
          html={view.html}
          css={sheetCss}
          width={size.w}
          frozen={Boolean(editing)}
          label={`Slide ${view.title ? `“${view.title}”` : slideId}, as drawn`}
          onRoot={(root) => {
            rootRef.current = root
            editor.current = null
            if (store.state.editing) store.set({ editing: null })
          }}
        />
        <div class="overlay" style={{ '--slide-ink': slideInk(view.html) }} onPointerDown={onBackgroundPointerDown} role="group" aria-label="Objects on this slide: Tab to reach them, Enter to edit text, arrows to nudge">
          {writable ? <Prompts slideId={slideId} prompts={prompts} scale={scale} editing={editing} onEdit={(id) => store.set({ selection: [id], editing: id })} /> : null}
          {items.map((item) => {
            const b = frameBox(item)
            const isSelected = selection.includes(item.id)
            const moving = isSelected && (preview.dx || preview.dy)
            return (
              <div
                key={item.id}
                data-frame={item.id}
                data-kind={item.kind}
                class={`frame ${isSelected ? 'selected' : ''} ${editing === item.id ? 'editing' : ''} ${item.locked ? 'locked' : ''}`}
                role="button"
                tabIndex={0}
                aria-pressed={isSelected}
                aria-label={`${item.kind}${item.field ? ` (${item.field})` : ''}: ${prompted.has(item.id) ? 'empty, Enter to type' : item.label}${item.missingAlt ? ' — alt text missing' : ''}${item.locked ? ' (locked)' : ''}`}
                style={{
                  left: px(b.x + (moving ? preview.dx! : 0)),
                  top: px(b.y + (moving ? preview.dy! : 0)),
                  width: px(b.w),
                  height: px(b.h),
                  transform: `rotate(${one?.id === item.id && preview.angle !== undefined ? preview.angle : item.angle}deg)`,
                }}
                onPointerDown={(e) => onFramePointerDown(e, item.id)}
                onDblClick={() => writable && TEXT_KINDS.has(item.kind) && store.set({ selection: [item.id], editing: item.id })}
                onKeyDown={(e) => onFrameKey(e, item)}
              >
                {one?.id === item.id && !item.locked && writable && editing !== item.id ? (
                  <>
                    {HANDLES.map((h) => (
                      <span key={h} class={`handle h-${h}`} aria-hidden="true" data-handle={h} onPointerDown={(e) => onHandlePointerDown(e, h)} />
                    ))}
                    <span class="handle rotate" aria-hidden="true" data-handle="rotate" onPointerDown={(e) => onHandlePointerDown(e, 'rotate')} />
                  </>
                ) : null}
              </div>
            )
          })}
          <Pins slideId={slideId} items={items} scale={scale} root={() => rootRef.current} overlay={() => wrap.current?.querySelector('.overlay') ?? null} />
          {preview.lines.map((line, i) => (
            <div key={i} class={`snap-line ${line.x !== undefined ? 'v' : 'h'}`} style={line.x !== undefined ? { left: px(line.x) } : { top: px(line.y!) }} aria-hidden="true" />
          ))}
          {preview.marquee ? <div class="marquee" aria-hidden="true" style={{ left: px(preview.marquee.x), top: px(preview.marquee.y), width: px(preview.marquee.w), height: px(preview.marquee.h) }} /> : null}
          {roster
            .filter((r) => r.slideId === slideId)
            .flatMap((r) =>
              r.selection
                .filter((id) => byId.has(id))
                .map((id) => {
                  const b = byId.get(id)!.box
                  return (
                    <div key={`${r.clientId}:${id}`} class="remote-selection" aria-hidden="true" style={{ left: px(b.x), top: px(b.y), width: px(b.w), height: px(b.h), transform: `rotate(${byId.get(id)!.angle}deg)` }}>
                      <span class="pointer-name">{r.name}</span>
                    </div>
                  )
                }),
            )}
          {roster
            .filter((r) => r.pointer && r.slideId === slideId)
            .map((r) => (
              <div key={r.clientId} class="remote-pointer" data-client={r.clientId} style={{ left: px(r.pointer!.x), top: px(r.pointer!.y) }} aria-hidden="true">
                <span class="pointer-name">{r.name}</span>
              </div>
            ))}
        </div>
      </div>
    </div>
  )
}

/** The sheet's text colour (prompts are drawn in it, faded, so they read on light and dark slides alike). */
function slideInk(html: string): string {
  return /^<div class="sheet"[^>]*?style="[^"]*?(?:^|;)color:(#[0-9a-fA-F]{3,8})/.exec(html)?.[1] ?? '#111111'
}

/** The box a resize handle drags to (in the block's own turned frame), at least 8 px each way. */
function resized(box: Box, handle: Handle, dx: number, dy: number, angle: number, keepAspect: boolean): Box {
  const rad = (-angle * Math.PI) / 180
  const lx = dx * Math.cos(rad) - dy * Math.sin(rad)
  const ly = dx * Math.sin(rad) + dy * Math.cos(rad)
  let { x, y, w, h } = box
  if (handle.includes('e')) w = box.w + lx
  if (handle.includes('w')) {
    w = box.w - lx
    x = box.x + lx
  }
  if (handle.includes('s')) h = box.h + ly
  if (handle.includes('n')) {
    h = box.h - ly
    y = box.y + ly
  }
  if (keepAspect && box.w && box.h) {
    const ratio = box.w / box.h
    if (handle === 'n' || handle === 's') w = h * ratio
    else h = w / ratio
    if (handle.includes('w')) x = box.x + box.w - w
    if (handle.includes('n')) y = box.y + box.h - h
  }
  if (w < 8) {
    if (handle.includes('w')) x -= 8 - w
    w = 8
  }
  if (h < 8) {
    if (handle.includes('n')) y -= 8 - h
    h = 8
  }
  return { x, y, w, h }
}
