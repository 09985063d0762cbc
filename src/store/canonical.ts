/**
 * Canonical JSON: fixed key order, 2-space indent, trailing newline.
 *
 * Keys named in KEY_ORDER come first in that order (identity, kind and layout before content), the
 * rest follow alphabetically. The same document always serializes to the same bytes, so a one-word
 * edit is a one-line git diff and `deck.pack` is deterministic.
 */
const KEY_ORDER = [
  'bundleVersion', 'id', 'n', 'kind', 'layout', 'layoutOptions', 'slot', 'name', 'title', 'subtitle', 'byline', 'label', 'category',
  'sentence', 'text', 'items', 'theme', 'defaults', 'background', 'guides', 'sections', 'slides', 'blocks', 'notes',
  'skip', 'revision', 'trashedAt', 'stamps',
]
const RANK = new Map(KEY_ORDER.map((key, index) => [key, index]))

function compareKeys(a: string, b: string): number {
  const ra = RANK.get(a) ?? Infinity
  const rb = RANK.get(b) ?? Infinity
  if (ra !== rb) return ra - rb
  return a < b ? -1 : a > b ? 1 : 0
}

/** Deep copy with keys in canonical order; `undefined` members are dropped, as JSON would. */
export function canonicalize<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => canonicalize(item)) as T
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort(compareKeys)) {
      const member = (value as Record<string, unknown>)[key]
      if (member !== undefined) out[key] = canonicalize(member)
    }
    return out as T
  }
  return value
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value), null, 2) + '\n'
}
