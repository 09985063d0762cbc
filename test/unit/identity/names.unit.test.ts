import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { checkName, nameKey, skeleton } from '../../../src/identity/names.js'

describe('display names', () => {
  it("compares names by Unicode's skeleton: look-alikes from confusables.txt are one name", () => {
    assert.equal(skeleton('\u0410'), skeleton('A')) // Cyrillic А
    assert.equal(nameKey('AIice'), nameKey('Alice'))
    assert.equal(nameKey('m'), nameKey('rn'))
    assert.notEqual(nameKey('Ana'), nameKey('Ann'))
    // Capitals: the skeleton takes I to l but not i, so the key makes i, I and l one letter.
    assert.equal(nameKey('ALICE'), nameKey('Alice'))
    assert.equal(nameKey('OLIVIA'), nameKey('Olivia'))
  })

  it('refuses reserved names in any case, and names with characters that draw nothing', () => {
    for (const name of ['admin', 'ADMIN', 'Administrator', 'STUDIO', 'DeckStudio', 'root']) assert.throws(() => checkName(name), (e: { toJSON(): { details?: { reason?: string } } }) => e.toJSON().details?.reason === 'reserved', name)
    for (const name of ['Alice\u3164', 'Al\u200Dice', 'Al\u034Fice', 'Ali\uFE0Fce', '\u115FAna']) assert.throws(() => checkName(name), (e: { toJSON(): { details?: { reason?: string } } }) => e.toJSON().details?.reason === 'control', JSON.stringify(name))
    // Emoji keep what they need: a variation selector after one, a joiner between two.
    for (const name of ['Ana \u2764\uFE0F', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467} Lima']) assert.equal(checkName(name).name, name)
  })

  it('keeps names of one script, and the CJK mixes TR39 allows', () => {
    for (const name of ['Ana Lima', '山田 太郎', 'Yamada 山田', '김 Kim', 'Ζωή', '👩‍💻 Ana']) assert.equal(checkName(name).name, name)
  })

  it('stores NFC with white space trimmed and made one space', () => {
    assert.equal(checkName(' Jose\u0301 \u00a0  Lima ').name, 'Jos\u00e9 Lima')
    assert.throws(() => checkName('Ana\tLima'), /control characters/)
  })
})
