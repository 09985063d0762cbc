/**
 * Reading the JSON files of a deck bundle (manifest.json, deck.json, slides, versions.json). Apart from
 * src/store/bundle.ts so that the deck actions can parse a bundle's files without loading the zip code.
 */
import { fail } from '../core/errors.js'

/**
 * How deep a bundle's JSON may nest (arrays and objects). A deck nests about 8 deep; the model's
 * checks and canonical writer walk values recursively, and 100k nested arrays overflow their stack.
 */
export const MAX_JSON_DEPTH = 256

/** The deepest nesting of arrays and objects in a JSON text, counted on the text (strings skipped), stopping past `limit`. */
function jsonDepth(text: string, limit: number): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // a backslash: the next character is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest && (deepest = depth) > limit) break
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

/**
 * Parses one JSON file of a bundle (`name` is its path inside the bundle, the only name a message
 * carries): refused when it is not JSON or nests deeper than MAX_JSON_DEPTH, before anything walks it.
 */
export function parseBundleJson(bytes: Buffer, name: string): unknown {
  const text = bytes.toString('utf8')
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    fail('refused', `The bundle is refused: ${name} nests arrays and objects more than ${MAX_JSON_DEPTH} deep (a deck nests about 8).`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    fail('refused', `The bundle is refused: ${name} is not valid JSON (${(error as Error).message}).`)
  }
}
