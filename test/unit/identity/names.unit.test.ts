import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { checkName, nameKey, skeleton } from '../../../src/identity/names.js'

describe('display names', () => {
  it("compares names by Unicode's skeleton: look-alikes from confusables.txt are one name", () => {
    assert.equal(skeleton('\u0410'), skeleton('A')) // Cyrillic А
    assert.equal(nameKey('AIice'), nameKey('Alice'))
    assert.equal(nameKey('m'), nameKey('rn'))
    assert.notEqual(nameKey('Ana'), nameKey('Ann'))
  })

  it('keeps names of one script, and the CJK mixes TR39 allows', () => {
    for (const name of ['Ana Lima', '山田 太郎', 'Yamada 山田', '김 Kim', 'Ζωή', '👩‍💻 Ana']) assert.equal(checkName(name).name, name)
  })

  it('stores NFC with white space trimmed and made one space', () => {
    assert.equal(checkName(' Jose\u0301 \u00a0  Lima ').name, 'Jos\u00e9 Lima')
    assert.throws(() => checkName('Ana\tLima'), /control characters/)
  })
})
