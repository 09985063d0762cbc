import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { LAYOUTS } from '../../../src/model/layouts.js'
import { layoutTable } from '../../../src/layout/index.js'

describe('docs/layouts.md', () => {
  it('matches layoutTable() (regenerate: node --import tsx -e "import(\'./src/layout/index.ts\').then(l => process.stdout.write(l.layoutTable()))" > docs/layouts.md)', () => {
    assert.equal(readFileSync(new URL('../../../docs/layouts.md', import.meta.url), 'utf8'), layoutTable())
  })
  it('lists all 22 layouts and the font license', () => {
    const md = layoutTable()
    for (const layout of LAYOUTS) assert.ok(md.includes(`| \`${layout}\` |`), layout)
    assert.match(md, /SIL Open Font License, Version 1\.1/)
  })
})
