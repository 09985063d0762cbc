import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { accessMarkdown, actionsMarkdown, errorsMarkdown, themesMarkdown } from '../../scripts/docs.js'

describe('generated docs', () => {
  it('docs/actions.md, docs/errors.md and docs/themes.md match the tables (run npm run docs after changing them)', () => {
    assert.equal(readFileSync(new URL('../../docs/themes.md', import.meta.url), 'utf8'), themesMarkdown())
    assert.equal(readFileSync(new URL('../../docs/actions.md', import.meta.url), 'utf8'), actionsMarkdown())
    assert.equal(readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8'), errorsMarkdown())
  })

  it("docs/access.md's role table is the role table of src/core/access.ts (run npm run docs after changing it)", () => {
    const access = readFileSync(new URL('../../docs/access.md', import.meta.url), 'utf8')
    assert.equal(access, accessMarkdown(access))
  })
})
