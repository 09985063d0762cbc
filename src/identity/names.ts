/**
 * Display names (account.setName): the rules and their fixed sentences, and the UTS #39 skeleton that
 * makes two names that look alike one name.
 *
 * The skeleton is Unicode's (TR39 §4): NFD, each code point replaced by its prototype from
 * confusables.txt, NFD again. The table is Unicode's own, carried by the `unhomoglyph` package (its
 * data.json is confusables.txt's mapping; nothing here is hand-typed). Names are compared by
 * `nameKey`: the skeleton, lower-cased, skeletoned again, so `Аna` (Cyrillic А) and `Ana`, `AIice`
 * (capital I) and `Alice`, `rn` and `m` are one name.
 *
 * Refusals are fixed sentences, one per rule, the same whatever the name (the spec): a refusal never
 * echoes the name, nor says whose name it looks like.
 */
import unhomoglyph from 'unhomoglyph'
import { fail } from '../core/errors.js'

export const NAME_MAX = 40

export type NameRule = 'length' | 'letter' | 'control' | 'bidi' | 'reserved' | 'confusable' | 'taken'

/** The fixed sentence of each rule. */
export const NAME_SENTENCES: Readonly<Record<NameRule, string>> = {
  length: 'A name has 1 to 40 characters.',
  letter: 'A name needs at least one letter or digit.',
  control: 'A name cannot contain control characters or invisible formatting characters.',
  bidi: 'A name cannot contain bidirectional control characters.',
  reserved: 'This name is reserved or imitates a reserved name; choose another.',
  confusable: 'This name mixes letters of different scripts that can look alike; write it in one script.',
  taken: 'Someone who shares a deck with you has a name that looks the same; choose another.',
}

/** Refuses with the rule's fixed sentence: 400 `name_refused`, `details.reason` naming the rule. */
export function refuseName(rule: NameRule): never {
  fail('name_refused', NAME_SENTENCES[rule], { pointer: '/name', details: { reason: rule } })
}

/** U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: the bidirectional controls. */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u
/** Other controls and invisible formatting (zero-width space, joiners' neighbours, BOM, tags, line separators); ZWJ stays for emoji sequences. */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]|(?!\u200D)\p{Cf}/u
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u

/**
 * Names a person may not take, nor imitate: compared by skeleton, as a whole name (letters only) and
 * word by word, and any name that begins like `agent` (agents are named `agent:<runId>`).
 */
export const RESERVED_NAMES = ['admin', 'administrator', 'owner', 'studio', 'system', 'support', 'moderator', 'root', 'anonymous', 'everyone', 'agent', 'deckstudio'] as const

/** TR39's skeleton: NFD, confusables.txt's prototype for each code point, NFD. */
export function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD')
}

/**
 * The key two names are compared by: the skeleton, lower-cased, skeletoned again, and i made l. The
 * skeleton takes capital I to l but leaves small i alone, so without the last step "ADMIN" (admln) and
 * "admin" (admin) would differ, and "ALICE" would pass beside "Alice".
 */
export function nameKey(name: string): string {
  return skeleton(skeleton(name).toLowerCase()).replace(/i/g, 'l')
}

/**
 * Characters that draw nothing (Unicode's Default_Ignorable_Code_Point: the Hangul fillers, the combining
 * grapheme joiner, variation selectors, zero-width joiners...), which would make a name that looks like
 * another's compare unlike it. Allowed only where an emoji needs them: a variation selector after an
 * emoji, a zero-width joiner between two.
 */
function hasInvisible(name: string): boolean {
  const chars = [...name]
  return chars.some((char, i) => {
    if (!/\p{Default_Ignorable_Code_Point}/u.test(char)) return false
    const before = chars[i - 1] ?? ''
    const after = chars[i + 1] ?? ''
    if (char === '\uFE0F') return !/\p{Emoji}/u.test(before)
    if (char === '\u200D') return !(/[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u.test(before) && /\p{Extended_Pictographic}/u.test(after))
    return true
  })
}

const lettersOnly = (key: string) => key.replace(/[^\p{L}\p{N}]+/gu, '')
const RESERVED_KEYS = new Set(RESERVED_NAMES.map((name) => lettersOnly(nameKey(name))))
const AGENT_KEY = lettersOnly(nameKey('agent'))

/**
 * Scripts a name's letters may come from together (TR39's highly restrictive level): one script, or
 * Latin with Han and Japanese kana, Han with Bopomofo, or Han with Hangul.
 */
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar', 'Khmer', 'Ethiopic', 'Cherokee', 'Mongolian', 'Han', 'Hiragana', 'Katakana', 'Bopomofo', 'Hangul'] as const
const SCRIPT_RE = new Map(SCRIPTS.map((s) => [s, new RegExp(`\\p{Script=${s}}`, 'u')]))
const ALLOWED_MIXES: ReadonlyArray<ReadonlySet<string>> = [new Set(['Latin', 'Han', 'Hiragana', 'Katakana']), new Set(['Latin', 'Han', 'Bopomofo']), new Set(['Latin', 'Han', 'Hangul'])]

function scriptsOf(name: string): Set<string> {
  const out = new Set<string>()
  for (const char of name) {
    if (!/\p{L}/u.test(char) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(char)) continue
    let found = 'Other'
    for (const [script, re] of SCRIPT_RE) if (re.test(char)) found = script
    out.add(found)
  }
  return out
}

/**
 * The name as stored (NFC, spaces trimmed and runs of white space made one space) with its key, or a
 * refusal with the rule's fixed sentence. Uniqueness per deck is the caller's (it needs the decks).
 */
export function checkName(raw: string): { name: string; key: string } {
  if (BIDI.test(raw)) refuseName('bidi')
  if (CONTROL.test(raw) || hasInvisible(raw)) refuseName('control')
  const name = raw.normalize('NFC').trim().replace(/\s+/gu, ' ')
  const length = [...name].length
  if (length < 1 || length > NAME_MAX) refuseName('length')
  if (!LETTER_OR_DIGIT.test(name)) refuseName('letter')
  const key = nameKey(name)
  const whole = lettersOnly(key)
  const words = key.split(/[^\p{L}\p{N}]+/u).filter(Boolean)
  if (RESERVED_KEYS.has(whole) || whole.startsWith(AGENT_KEY) || words.some((word) => RESERVED_KEYS.has(word))) refuseName('reserved')
  const scripts = scriptsOf(name)
  if (scripts.size > 1 && !ALLOWED_MIXES.some((mix) => [...scripts].every((s) => mix.has(s)))) refuseName('confusable')
  return { name, key }
}
