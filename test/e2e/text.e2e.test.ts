import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fixtureWorkspace, FIXTURE_DECK } from '../helpers/fixture.js'
import { cliInOneProcess, type CliResult, commitCount, studio } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

type Fixture = Awaited<ReturnType<typeof fixtureWorkspace>>

function slideFile(ws: Fixture, slideId: string): any {
  return JSON.parse(readFileSync(join(ws.dir, 'decks', FIXTURE_DECK, 'slides', `${slideId}.json`), 'utf8'))
}

function block(ws: Fixture, slideId: string, blockId: string): any {
  return slideFile(ws, slideId).blocks.find((b: { id: string }) => b.id === blockId)
}

async function revision(ws: Fixture): Promise<number> {
  return (await studio(ws.dir, ['info', '--json'])).json.revision
}

/** Runs a write and holds that it succeeded with exactly one new commit. */
async function oneCommit(ws: Fixture, args: string[]): Promise<CliResult> {
  const commits = await commitCount(ws.git)
  const result = await studio(ws.dir, [...args, '--json'])
  assert.equal(result.code, 0, result.stdout + result.stderr)
  assert.equal(await commitCount(ws.git), commits + 1)
  assert.equal(await ws.git('status', '--porcelain'), '')
  return result
}

/** Runs a write that must fail with `status`, `code` and `pointer`, and write nothing. */
async function refused(ws: Fixture, args: string[], status: number, code: string, pointer?: string): Promise<CliResult> {
  const commits = await commitCount(ws.git)
  const result = await studio(ws.dir, [...args, '--json'])
  assert.equal(result.json?.status, status, result.stdout + result.stderr)
  assert.equal(result.json.code, code)
  if (pointer !== undefined) assert.equal(result.json.pointer, pointer)
  assert.equal(await commitCount(ws.git), commits)
  assert.equal(await ws.git('status', '--porcelain'), '')
  return result
}

/** A stale --rev answers 409 with the current revision and document, and writes nothing. */
async function stale(ws: Fixture, args: string[]) {
  const current = await revision(ws)
  const result = await refused(ws, [...args, '--rev', String(current - 1)], 409, 'stale_revision')
  assert.equal(result.code, 4)
  assert.equal(result.json.currentRevision, current)
  assert.ok(result.json.current.slides['title-body-2'])
}

describe('text.style and text.link on the command line', () => {
  let ws: Fixture
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('styles a range of a paragraph: one write, the new markup in the result and on disk', async () => {
    const result = await oneCommit(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,5', '--italic', '--color', 'accent'])
    const expected = '<span style="color:accent"><i>Costs</i></span> fell by half at Acme.\nMargins grew.'
    assert.equal(result.json.text, expected)
    assert.equal(result.json.block.text, expected)
    assert.equal(result.json.slide.id, 'title-body-2')
    assert.equal(result.json.revision, 4)
    assert.equal(block(ws, 'title-body-2', 'b1').text, expected)
    assert.match(await ws.git('log', '-1', '--format=%B'), /Studio-Action: text\.style/)
  })

  it('styles across a paragraph break and a list item, and clears marks with --marks', async () => {
    const across = await oneCommit(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '22,35', '--underline', '--size', '32'])
    assert.equal(
      across.json.text,
      '<span style="color:accent"><i>Costs</i></span> fell by half at <span style="font-size:32px"><u>Acme.</u></span>\n<span style="font-size:32px"><u>Margins</u></span> grew.',
    )
    const cleared = await oneCommit(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,41', '--marks', '{"italic":false,"underline":false,"color":null,"size":null}'])
    assert.equal(cleared.json.text, 'Costs fell by half at Acme.\nMargins grew.')
    const item = await oneCommit(ws, ['text', 'style', 'title-body-2#b2', '/items/1/text', '--range', '0,5', '--strike', '--highlight', '#ffee00'])
    assert.equal(block(ws, 'title-body-2', 'b2').items[1].text, '<span style="background:#ffee00"><s>Fewer</s></span> incidents')
    assert.equal(item.json.block.items[1].level, 2)
    const cell = await oneCommit(ws, ['text', 'style', 'two-columns-3#b3', '/rows/1/1', '--range', '0,1', '--superscript'])
    assert.equal(cell.json.text, '<sup>2</sup> days')
  })

  it('writes nothing when the marks are already there', async () => {
    const commits = await commitCount(ws.git)
    const current = await revision(ws)
    const again = await studio(ws.dir, ['text', 'style', 'two-columns-3#b3', '/rows/1/1', '--range', '0,1', '--superscript', '--json'])
    assert.equal(again.code, 0, again.stdout)
    assert.equal(again.json.revision, current)
    assert.equal(await commitCount(ws.git), commits)
  })

  it('refuses a stale --rev with 409', async () => {
    await stale(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,5', '--italic'])
  })

  it('refuses bad input with the pointer of the field: path, range, block, marks', async () => {
    await refused(ws, ['text', 'style', 'title-body-2#b1', '/items/0/text', '--range', '0,5', '--italic'], 400, 'invalid_input', '/path')
    await refused(ws, ['text', 'style', 'title-body-2#b2', '/items/9/text', '--range', '0,5', '--italic'], 404, 'not_found', '/path')
    await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '5,99', '--italic'], 400, 'invalid_input', '/range')
    await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '5,5', '--italic'], 400, 'invalid_input', '/range')
    await refused(ws, ['text', 'style', 'title-body-2#nope', '/text', '--range', '0,5', '--italic'], 404, 'not_found', '/blockId')
    await refused(ws, ['text', 'style', 'nope-9#b1', '/text', '--range', '0,5', '--italic'], 404, 'not_found', '/slideId')
    await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,5'], 400, 'invalid_input', '/marks')
    await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,5', '--superscript', '--subscript'], 400, 'invalid_input', '/marks/subscript')
    await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,5', '--color', 'rgb(1,2,3)'], 400, 'invalid_input', '/marks/color')
  })

  it('links a range to a web address, to a slide, and clears the link', async () => {
    const url = await oneCommit(ws, ['text', 'link', 'title-body-2#b1', '/text', '--range', '0,10', '--url', 'https://example.com/report?a=1&b=2'])
    assert.equal(url.json.text, '<a href="https://example.com/report?a=1&amp;b=2">Costs fell</a> by half at Acme.\nMargins grew.')
    const slide = await oneCommit(ws, ['text', 'link', 'title-body-2#b1', '/text', '--range', '22,26', '--to-slide', 'two-columns-3'])
    assert.match(slide.json.text, /<a href="#slide:two-columns-3">Acme<\/a>\./)
    const cleared = await oneCommit(ws, ['text', 'link', 'title-body-2#b1', '/text', '--range', '0,41', '--clear'])
    assert.equal(cleared.json.text, 'Costs fell by half at Acme.\nMargins grew.')
    assert.equal(block(ws, 'title-body-2', 'b1').text, 'Costs fell by half at Acme.\nMargins grew.')
  })

  it('refuses a link to an unknown slide (404), a bad address (400) and a stale --rev (409)', async () => {
    await refused(ws, ['text', 'link', 'title-body-2#b1', '/text', '--range', '0,5', '--to-slide', 'nope-7'], 404, 'not_found', '/link/slide')
    await refused(ws, ['text', 'link', 'title-body-2#b1', '/text', '--range', '0,5', '--url', 'javascript:alert(1)'], 400, 'invalid_input')
    await refused(ws, ['text', 'link', 'title-body-2#b1', '/text', '--range', '0,5'], 400, 'invalid_input')
    await stale(ws, ['text', 'link', 'title-body-2#b1', '/text', '--range', '0,5', '--url', 'https://example.com'])
  })
})

describe('text.list, text.spacing, text.columns and text.indent on the command line', () => {
  let ws: Fixture
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('turns a paragraph into a numbered list, one item per paragraph', async () => {
    const result = await oneCommit(ws, ['text', 'list', 'title-body-2#b1', '--marker', 'number'])
    const expected = { id: 'b1', kind: 'list', slot: 'body', marker: 'number', items: [{ text: 'Costs fell by half at Acme.' }, { text: 'Margins grew.' }] }
    assert.deepEqual(block(ws, 'title-body-2', 'b1'), expected)
    assert.deepEqual(result.json.block, expected)
  })

  it('sets a preset (its marker follows), item levels, and steps levels within 1 to 9', async () => {
    await oneCommit(ws, ['text', 'list', 'title-body-2#b2', '--preset', 'upper-roman'])
    assert.equal(block(ws, 'title-body-2', 'b2').marker, 'number')
    assert.equal(block(ws, 'title-body-2', 'b2').preset, 'upper-roman')
    await oneCommit(ws, ['text', 'list', 'title-body-2#b2', '--marker', 'bullet'])
    assert.equal(block(ws, 'title-body-2', 'b2').preset, undefined, 'a marker of another family drops the preset')
    await oneCommit(ws, ['text', 'list', 'title-body-2#b2', '--items', '0,2', '--level', '9'])
    assert.deepEqual(block(ws, 'title-body-2', 'b2').items.map((i: { level?: number }) => i.level), [9, 2, 9])
    await oneCommit(ws, ['text', 'list', 'title-body-2#b2', '--level-by', '1'])
    assert.deepEqual(block(ws, 'title-body-2', 'b2').items.map((i: { level?: number }) => i.level), [9, 3, 9])
    await oneCommit(ws, ['text', 'list', 'title-body-2#b2', '--level', '1', '--items', '1'])
    assert.deepEqual(block(ws, 'title-body-2', 'b2').items.map((i: { level?: number }) => i.level), [9, undefined, 9])
  })

  it('refuses a heading, an unknown item, a preset of another marker, and a stale --rev', async () => {
    await refused(ws, ['text', 'list', 'title-body-2#title', '--marker', 'number'], 400, 'invalid_input', '/blockId')
    await refused(ws, ['text', 'list', 'title-body-2#b2', '--items', '7', '--level', '2'], 404, 'not_found', '/items/0')
    await refused(ws, ['text', 'list', 'title-body-2#b2', '--marker', 'bullet', '--preset', 'decimal'], 400, 'invalid_input', '/preset')
    await refused(ws, ['text', 'list', 'title-body-2#b2', '--level', '10'], 400, 'invalid_input', '/level')
    await refused(ws, ['text', 'list', 'title-body-2#b2', '--items', '0'], 400, 'invalid_input', '/items')
    await stale(ws, ['text', 'list', 'title-body-2#b2', '--marker', 'number'])
  })

  it('sets and clears spacing', async () => {
    const set = await oneCommit(ws, ['text', 'spacing', 'title-body-2#b2', '--line', '1.5', '--before', '8', '--after', '12'])
    assert.deepEqual(block(ws, 'title-body-2', 'b2').spacing, { line: 1.5, before: 8, after: 12 })
    assert.deepEqual(set.json.blocks[0].spacing, { line: 1.5, before: 8, after: 12 })
    await oneCommit(ws, ['text', 'spacing', 'title-body-2#b2', '--line', 'null', '--before', 'null'])
    assert.deepEqual(block(ws, 'title-body-2', 'b2').spacing, { after: 12 })
    await oneCommit(ws, ['text', 'spacing', 'title-body-2#b2', '--after', 'null'])
    assert.equal(block(ws, 'title-body-2', 'b2').spacing, undefined)
  })

  it('refuses spacing on a picture (400), on an unknown block (404), out of range (400) and a stale --rev (409)', async () => {
    await refused(ws, ['text', 'spacing', 'freeform-4#b3', '--line', '1.5'], 400, 'invalid_input', '/blockIds/0')
    await refused(ws, ['text', 'spacing', 'freeform-4#b9', '--line', '1.5'], 404, 'not_found', '/blockIds/0')
    await refused(ws, ['text', 'spacing', 'title-body-2#b2', '--line', '9'], 400, 'invalid_input', '/line')
    await refused(ws, ['text', 'spacing', 'title-body-2#b2'], 400, 'invalid_input')
    await stale(ws, ['text', 'spacing', 'title-body-2#b2', '--line', '2'])
  })

  it('sets columns, and 1 removes them', async () => {
    const result = await oneCommit(ws, ['text', 'columns', 'title-body-2#b1', '2'])
    assert.equal(result.json.blocks[0].columns, 2)
    assert.equal(block(ws, 'title-body-2', 'b1').columns, 2)
    await oneCommit(ws, ['text', 'columns', 'title-body-2#b1', '1'])
    assert.equal(block(ws, 'title-body-2', 'b1').columns, undefined)
    await refused(ws, ['text', 'columns', 'title-body-2#b1', '4'], 400, 'invalid_input', '/columns')
    await refused(ws, ['text', 'columns', 'freeform-4#b5', '2'], 400, 'invalid_input', '/blockIds/0')
    await stale(ws, ['text', 'columns', 'title-body-2#b1', '3'])
  })

  it('indents a text box by 64 px steps or to px, and steps list levels instead on a list', async () => {
    await oneCommit(ws, ['text', 'indent', 'freeform-4#b2', '--by', '1'])
    assert.equal(block(ws, 'freeform-4', 'b2').indent, 64)
    await oneCommit(ws, ['text', 'indent', 'freeform-4#b2', '--to', '100'])
    assert.equal(block(ws, 'freeform-4', 'b2').indent, 100)
    await oneCommit(ws, ['text', 'indent', 'freeform-4#b2', '--by', '1'])
    assert.equal(block(ws, 'freeform-4', 'b2').indent, 128)
    await oneCommit(ws, ['text', 'indent', 'freeform-4#b2', '--by=-1'])
    await oneCommit(ws, ['text', 'indent', 'freeform-4#b2', '--by', '-1'])
    assert.equal(block(ws, 'freeform-4', 'b2').indent, undefined)
    const before = block(ws, 'title-body-2', 'b2').items.map((i: { level?: number }) => i.level ?? 1)
    await oneCommit(ws, ['text', 'indent', 'title-body-2#b2', '--by', '1', '--items', '1'])
    const after = block(ws, 'title-body-2', 'b2')
    assert.deepEqual(after.items.map((i: { level?: number }) => i.level ?? 1), [before[0], Math.min(9, before[1] + 1), before[2]])
    assert.equal(after.indent, undefined)
  })

  it('refuses an unknown item (404), items without by, out-of-range indents (400) and a stale --rev (409)', async () => {
    await refused(ws, ['text', 'indent', 'title-body-2#b2', '--by', '1', '--items', '5'], 404, 'not_found', '/items/0')
    await refused(ws, ['text', 'indent', 'freeform-4#b2', '--by', '1', '--items', '0'], 400, 'invalid_input', '/items')
    await refused(ws, ['text', 'indent', 'freeform-4#b2', '--to', '2000'], 400, 'invalid_input', '/to')
    await refused(ws, ['text', 'indent', 'freeform-4#b2'], 400, 'invalid_input')
    await stale(ws, ['text', 'indent', 'freeform-4#b2', '--by', '1'])
  })
})

describe('text.replaceAll on the command line', () => {
  let ws: Fixture
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('answers no match without writing', async () => {
    const commits = await commitCount(ws.git)
    const result = await studio(ws.dir, ['text', 'replace', 'acme', 'Globex', '--match-case', '--json'])
    assert.equal(result.code, 0, result.stdout)
    assert.deepEqual({ ...result.json, tag: undefined }, { replacements: 0, changed: [], slides: [], revision: 3, tag: undefined })
    assert.equal(await commitCount(ws.git), commits)
  })

  it('replaces in Texts, notes and table cells of every slide in one write, keeping marks', async () => {
    await oneCommit(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '22,26', '--italic'])
    const result = await oneCommit(ws, ['text', 'replace', 'acme', 'Globex'])
    assert.equal(result.json.replacements, 2)
    assert.deepEqual(result.json.changed, [
      { id: 'title-1', count: 1 },
      { id: 'title-body-2', count: 1 },
    ])
    assert.deepEqual(result.json.slides.map((s: { id: string }) => s.id), ['title-1', 'title-body-2'])
    assert.equal(slideFile(ws, 'title-1').notes, 'Welcome everyone to Globex.')
    assert.equal(block(ws, 'title-body-2', 'b1').text, 'Costs fell by half at <i>Globex</i>.\nMargins grew.')
    const cells = await oneCommit(ws, ['text', 'replace', 'days', 'weeks', '--match-case'])
    assert.deepEqual(cells.json.changed, [{ id: 'two-columns-3', count: 1 }])
    assert.deepEqual(block(ws, 'two-columns-3', 'b3').rows[1], ['Lead time', '2 weeks'])
  })

  it('restricts to the slides named, and says so to people', async () => {
    const result = await studio(ws.dir, ['text', 'replace', 'Quarterly', 'Yearly', '--slides', 'title-body-2,two-columns-3'])
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /No match; nothing written/)
    const title = await oneCommit(ws, ['text', 'replace', 'Quarterly', 'Yearly', '--slides', 'title-1'])
    assert.equal(title.json.replacements, 1)
    assert.equal(slideFile(ws, 'title-1').title, 'Yearly review')
  })

  it("refuses to change a slide another author leased (409 naming the holder) unless forced", async () => {
    const lease = await studio(ws.dir, ['lease', 'title-1', '--author', 'agent:other', '--json'])
    assert.equal(lease.code, 0, lease.stdout)
    const held = await refused(ws, ['text', 'replace', 'Globex', 'Initech', '--author', 'agent:me'], 409, 'leased')
    assert.equal(held.json.holder.slideId, 'title-1')
    assert.equal(held.json.holder.author, 'agent:other')
    const forced = await oneCommit(ws, ['text', 'replace', 'Globex', 'Initech', '--author', 'agent:me', '--force'])
    assert.equal(forced.json.replacements, 2)
    assert.equal(slideFile(ws, 'title-1').notes, 'Welcome everyone to Initech.')
    assert.equal((await studio(ws.dir, ['lease', 'title-1', '--release', '--author', 'agent:other', '--json'])).code, 0)
  })

  it('refuses an unknown slide (404 with its pointer), an empty find (400) and a stale --rev (409)', async () => {
    await refused(ws, ['text', 'replace', 'Globex', 'Initech', '--slides', 'title-1,nope-5'], 404, 'not_found', '/slideIds/1')
    await refused(ws, ['text', 'replace', '', 'Initech'], 400, 'invalid_input', '/find')
    await stale(ws, ['text', 'replace', 'Globex', 'Initech'])
  })
})
