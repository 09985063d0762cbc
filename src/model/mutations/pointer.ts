/**
 * JSON pointers (RFC 6901) inside a slide or a block: read, write and delete, answering failures as
 * values. Only own members are walked (`/constructor` finds nothing), and `__proto__` is no member a
 * pointer can write: a write never reaches a prototype.
 */
import { has, isPrototypeKey } from '../own.js'

export type Tokens = string[]

/** The tokens of a pointer ('' is the whole document). */
export function tokens(pointer: string): Tokens {
  if (pointer === '') return []
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
}

type Container = Record<string, unknown> | unknown[]

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null

/** The container holding the last token, or a message saying where the walk stopped. */
function parentOf(root: unknown, path: Tokens): { parent: Container; key: string } | { error: string } {
  let node = root
  for (let i = 0; i < path.length - 1; i++) {
    const token = path[i]
    if (!isContainer(node)) return { error: `/${path.slice(0, i).join('/')} holds no members.` }
    const next: unknown = Array.isArray(node) ? (/^\d+$/.test(token) ? node[Number(token)] : undefined) : has(node, token) ? node[token] : undefined
    if (next === undefined) return { error: `Nothing at /${path.slice(0, i + 1).join('/')}.` }
    node = next
  }
  if (!isContainer(node)) return { error: `/${path.slice(0, -1).join('/')} holds no members.` }
  return { parent: node, key: path[path.length - 1] }
}

/** The value at a pointer, if there is one. */
export function getAt(root: unknown, path: Tokens): { found: true; value: unknown } | { found: false } {
  let node = root
  for (const token of path) {
    if (!isContainer(node)) return { found: false }
    node = Array.isArray(node) ? (/^\d+$/.test(token) ? node[Number(token)] : undefined) : has(node, token) ? node[token] : undefined
    if (node === undefined) return { found: false }
  }
  return { found: true, value: node }
}

/**
 * Writes a value: an object member is set; an array index replaces its item, and the index one past
 * the end (or `-`) appends. Returns an error message, or undefined when written.
 */
export function setAt(root: unknown, path: Tokens, value: unknown): string | undefined {
  if (!path.length) return 'The pointer names the whole document.'
  if (path.some(isPrototypeKey)) return '__proto__ is not a member a document can hold.'
  const at = parentOf(root, path)
  if ('error' in at) return at.error
  const { parent, key } = at
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : /^\d+$/.test(key) ? Number(key) : -1
    if (index < 0 || index > parent.length) return `Index "${key}" is outside the list (length ${parent.length}).`
    if (index === parent.length) parent.push(value)
    else parent[index] = value
    return undefined
  }
  parent[key] = value
  return undefined
}

/** Deletes the member or list item at a pointer; an error message when there is none. */
export function removeAt(root: unknown, path: Tokens): string | undefined {
  if (!path.length) return 'The pointer names the whole document.'
  const at = parentOf(root, path)
  if ('error' in at) return at.error
  const { parent, key } = at
  if (Array.isArray(parent)) {
    if (!/^\d+$/.test(key) || Number(key) >= parent.length) return `No item ${key} in the list (length ${parent.length}).`
    parent.splice(Number(key), 1)
    return undefined
  }
  if (!has(parent, key)) return `No member "${key}".`
  delete parent[key]
  return undefined
}
