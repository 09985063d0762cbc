/**
 * Lookups keyed by input. Slides, asset records and other records are plain objects, so a key such
 * as `constructor`, `toString` or `__proto__` would find a built-in of Object.prototype; ids that
 * are JavaScript built-in names must find nothing, or their own member when there is one.
 */

/** The own member of a record that a key names; undefined for anything inherited. */
export function own<T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return record !== null && record !== undefined && typeof record === 'object' && Object.hasOwn(record, key) ? record[key] : undefined
}

/** Whether a record has its own member `key`. */
export function has(record: object | null | undefined, key: string): boolean {
  return record !== null && record !== undefined && Object.hasOwn(record, key)
}

/** A member name that would reach an object's prototype when written (`obj[key] = …`). */
export function isPrototypeKey(key: string): boolean {
  return key === '__proto__'
}
