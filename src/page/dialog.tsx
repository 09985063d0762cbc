/**
 * A modal dialog over the page (the native <dialog>: focus stays inside, Escape closes it, focus
 * returns to what opened it), with its title as its accessible name.
 */
import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'

let nextId = 1

export function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null)
  const [id] = useState(() => `dialog-${nextId++}`)
  useEffect(() => {
    const dialog = ref.current!
    const opener = document.activeElement as HTMLElement | null
    if (!dialog.open) dialog.showModal()
    return () => opener?.focus?.()
  }, [])
  return (
    <dialog
      ref={ref}
      class={`modal ${wide ? 'wide' : ''}`}
      aria-labelledby={id}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
    >
      <header class="modal-head">
        <h2 id={id}>{title}</h2>
        <button type="button" class="quiet" onClick={onClose} aria-label={`Close ${title.toLowerCase()}`}>
          Close
        </button>
      </header>
      <div class="modal-body">{children}</div>
    </dialog>
  )
}

/** A secret or URL shown once: the text, a copy button, and the sentence that it will not be shown again. */
export function ShownOnce({ label, value, what }: { label: string; value: string; what: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <div class="shown-once" role="group" aria-label={label}>
      <p class="once-warning">
        <strong>Copy {what} now:</strong> it will not be shown again.
      </p>
      <div class="row">
        <input class="once-value" readOnly value={value} aria-label={label} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value)
              setCopied(true)
            } catch {
              setCopied(false)
            }
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  )
}

export const ROLES = ['viewer', 'commenter', 'editor'] as const
export type Role = (typeof ROLES)[number]
export const ROLE_WORDS: Record<Role, string> = { viewer: 'Viewer', commenter: 'Commenter', editor: 'Editor' }

export function RoleSelect({ value, onChange, label, disabled, id }: { value: string; onChange: (role: Role) => void; label: string; disabled?: boolean; id?: string }) {
  return (
    <select id={id} aria-label={id ? undefined : label} value={value} disabled={disabled} onChange={(e) => onChange((e.target as HTMLSelectElement).value as Role)}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {ROLE_WORDS[r]}
        </option>
      ))}
    </select>
  )
}

/** A date input's value (YYYY-MM-DD) as the ISO time at the end of that day, UTC; undefined when empty. */
export function endOfDay(date: string): string | undefined {
  return date ? `${date}T23:59:59.000Z` : undefined
}
