/**
 * One slide in the scripts a deck's readers write (issue 24): Polish, Turkish, Greek, Russian, Arabic,
 * Hebrew, Chinese, Japanese, Korean and emoji (an astral one, a ZWJ family, a flag, a skin tone). Used
 * by the render, geometry and PDF text tests, and for the picture in docs/rendering.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Manifest, Slide } from '../../src/model/deck.js'
import { canonicalJson } from '../../src/store/canonical.js'

export const SCRIPTS: { id: string; language: string; text: string }[] = [
  { id: 'pl', language: 'Polish', text: 'Zażółć gęślą jaźń — łódź' },
  { id: 'tr', language: 'Turkish', text: 'İstanbul’da ağaç ışığı' },
  { id: 'el', language: 'Greek', text: 'Καλημέρα κόσμε' },
  { id: 'ru', language: 'Russian', text: 'Съешь же ещё этих булок' },
  { id: 'ar', language: 'Arabic', text: 'مرحبا بالعالم' },
  { id: 'he', language: 'Hebrew', text: 'שלום עולם' },
  { id: 'zh', language: 'Chinese', text: '你好世界，欢迎。' },
  { id: 'ja', language: 'Japanese', text: 'こんにちは、世界。日本語' },
  { id: 'ko', language: 'Korean', text: '안녕하세요 세계' },
  { id: 'emoji', language: 'Emoji', text: '🚀 👩‍👩‍👧 🇵🇱 👍🏽 ✅' },
]

/** A freeform slide: a heading, then each script as a textbox in two columns of five. */
export const MULTILINGUAL: Slide = {
  id: 'multilingual',
  layout: 'freeform',
  blocks: [
    { id: 'title', kind: 'heading', pos: { x: 80, y: 48, w: 1440, h: 96 }, z: 0, text: 'Every script, one deck · 每种文字 · كل الخطوط' },
    ...SCRIPTS.map((s, i) => ({ id: s.id, kind: 'textbox', size: 40, pos: { x: 80 + Math.floor(i / 5) * 740, y: 200 + (i % 5) * 130, w: 700, h: 110 }, z: i + 1, text: `${s.text}\n${s.language}` })),
  ],
}

/** Writes a deck of `slides` into a workspace (not committed; the caller commits). */
export function writeDeck(root: string, id: string, title: string, slides: Slide[]): void {
  const dir = join(root, 'decks', id)
  mkdirSync(join(dir, 'slides'), { recursive: true })
  const now = '2026-11-27T00:00:00.000Z'
  const manifest: Manifest = { id, title, theme: 'studio-simple', defaults: { appearance: 'light' }, sections: [{ id: 'main', title: 'Main', slides: slides.map((s) => s.id) }], revision: 1, stamps: { createdAt: now, updatedAt: now } }
  writeFileSync(join(dir, 'deck.json'), canonicalJson(manifest))
  for (const slide of slides) writeFileSync(join(dir, 'slides', `${slide.id}.json`), canonicalJson(slide))
}
