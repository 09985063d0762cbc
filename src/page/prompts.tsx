/**
 * Prompts on empty slots ("Click to add title", "Click to add text", "Click to add picture"), drawn by
 * the editor over the sheet and never by the renderer, so no render, export, build or slideshow shows
 * them. A prompt stands for an empty text block (click edits it in place), an empty title or subtitle
 * field of a layout that draws its fields in slots (click types it in), a picture placeholder (click
 * picks a picture: asset.add, then block.set /asset on it), or a media slot with nothing in it (asset.add,
 * then block.insert).
 */
import { useRef, useState } from 'preact/hooks'
import type { Box, Slide, ViewItem } from './store.js'
import { addPicture, setField } from './commands.js'

const EDITABLE = new Set(['heading', 'text', 'list', 'textbox'])
const PROMPTED_FIELDS = ['title', 'subtitle'] as const

/** `picture` is the slot a picked picture goes to; `blockId` the picture placeholder (no asset) it fills, when there is one. */
export type PromptTarget = { edit: string } | { field: string } | { picture: string; blockId?: string }
export interface Prompt {
  key: string
  text: string
  /** The placeholder's outline: the slot, or the block's box when it has no slot of its own. */
  box: Box
  /** Where the first line of text goes (the prompt's words are drawn there). */
  line: Box
  target: PromptTarget
}

const plain = (text: unknown) => (typeof text === 'string' ? text.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim() : '')

/** Whether a drawn text block (or slide field) holds nothing to show. */
function isEmpty(slide: Slide, item: ViewItem): boolean {
  if (item.field) return !plain(slide[item.field])
  const block = slide.blocks?.find((b) => b.id === item.id)
  if (!block) return false
  if (item.kind === 'list') return !Array.isArray(block.items) || block.items.every((i: { text?: unknown }) => !plain(i.text))
  return !plain(block.text)
}

function words(slotOrField: string | undefined, kind: string): string {
  if (slotOrField === 'title' || (!slotOrField && kind === 'heading')) return 'Click to add title'
  if (slotOrField === 'subtitle') return 'Click to add subtitle'
  return 'Click to add text'
}

/**
 * The prompts of a slide: `slots` are the boxes of its layout's slots (none on the canvas), `fieldSlots`
 * the slot each of the layout's own fields is drawn in.
 */
export function slotPrompts(slide: Slide, items: ViewItem[], slots: Record<string, Box> | undefined, fieldSlots: Record<string, string> | undefined): Prompt[] {
  const prompts: Prompt[] = []
  const inSlot = new Map<string, ViewItem[]>()
  for (const item of items) if (item.slot) inSlot.set(item.slot, [...(inSlot.get(item.slot) ?? []), item])
  for (const item of items) {
    if (!EDITABLE.has(item.kind) || !isEmpty(slide, item)) continue
    const alone = item.slot && slots?.[item.slot] && inSlot.get(item.slot)!.length === 1
    prompts.push({ key: `edit:${item.id}`, text: words(item.field ?? item.slot, item.kind), box: alone ? slots![item.slot!] : item.box, line: item.box, target: { edit: item.id } })
  }
  for (const item of items) {
    const block = item.kind === 'picture' ? slide.blocks?.find((b) => b.id === item.id) : undefined
    if (!block || block.asset !== undefined) continue
    prompts.push({ key: `picture:${item.id}`, text: 'Click to add picture', box: item.box, line: item.box, target: { picture: item.slot ?? 'media', blockId: item.id } })
  }
  if (!slots) return prompts
  for (const field of PROMPTED_FIELDS) {
    const slot = fieldSlots?.[field]
    if (!slot || !slots[slot] || inSlot.has(slot) || plain(slide[field])) continue
    const box = slots[slot]
    prompts.push({ key: `field:${field}`, text: words(field, 'text'), box, line: { ...box, h: Math.min(box.h, field === 'title' ? 120 : 60) }, target: { field } })
  }
  if (slots.media && !inSlot.has('media')) prompts.push({ key: 'picture:media', text: 'Click to add picture', box: slots.media, line: slots.media, target: { picture: 'media' } })
  return prompts
}

export interface PromptsProps {
  slideId: string
  prompts: Prompt[]
  scale: number
  /** The block being edited in place (its prompt gives way to the caret). */
  editing: string | null
  onEdit(blockId: string): void
}

/** The prompts over the canvas. A block's prompt is behind its frame (the frame is the button); the others are buttons. */
export function Prompts({ slideId, prompts, scale, editing, onEdit }: PromptsProps) {
  const [typing, setTyping] = useState<string | null>(null)
  const file = useRef<HTMLInputElement>(null)
  const filling = useRef<{ slot: string; blockId?: string }>({ slot: 'media' })
  const px = (n: number) => `${n * scale}px`
  const place = (b: Box) => ({ left: px(b.x), top: px(b.y), width: px(b.w), height: px(b.h) })
  const fontPx = (line: Box, target: PromptTarget) => Math.max(10, Math.min('picture' in target ? 40 : line.h * 0.72, 64) * scale)
  return (
    <>
      {prompts.map((p) => {
        const t = p.target
        if ('edit' in t && t.edit === editing) return null
        const lineStyle = { left: px(p.line.x - p.box.x), top: px(p.line.y - p.box.y), width: px(p.line.w), height: px(p.line.h), fontSize: `${fontPx(p.line, t)}px` }
        if ('field' in t && typing === t.field) {
          return (
            <div key={p.key} class="prompt typing" style={place(p.box)} data-prompt={p.key}>
              <input
                class="prompt-input"
                aria-label={t.field === 'title' ? 'Title' : 'Subtitle'}
                style={lineStyle}
                ref={(el) => {
                  if (el && document.activeElement !== el) el.focus()
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') (e.currentTarget as HTMLInputElement).blur()
                  else if (e.key === 'Escape') {
                    ;(e.currentTarget as HTMLInputElement).value = ''
                    ;(e.currentTarget as HTMLInputElement).blur()
                  }
                  e.stopPropagation()
                }}
                onBlur={(e) => {
                  const value = (e.currentTarget as HTMLInputElement).value.trim()
                  setTyping(null)
                  if (value) void setField(slideId, t.field, value)
                }}
              />
            </div>
          )
        }
        const act = (event: Event) => {
          event.preventDefault()
          event.stopPropagation()
          if ('edit' in t) onEdit(t.edit)
          else if ('field' in t) setTyping(t.field)
          else {
            filling.current = { slot: t.picture, blockId: t.blockId }
            file.current?.click()
          }
        }
        const isButton = !('edit' in t)
        return (
          <div
            key={p.key}
            class={`prompt ${'picture' in t ? 'picture' : ''}`}
            style={place(p.box)}
            data-prompt={p.key}
            role={isButton ? 'button' : undefined}
            tabIndex={isButton ? 0 : undefined}
            aria-hidden={isButton ? undefined : 'true'}
            onPointerDown={act}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && act(e)}
          >
            <span class="prompt-text" style={lineStyle}>
              {p.text}
            </span>
          </div>
        )
      })}
      <input
        ref={file}
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml"
        hidden
        onChange={(e) => {
          const input = e.currentTarget as HTMLInputElement
          const picked = input.files?.[0]
          input.value = ''
          if (picked) void addPicture(slideId, filling.current.slot, picked, filling.current.blockId)
        }}
      />
    </>
  )
}
