/**
 * The rules of the slide model, held once by the write-time model check, reached by every path that
 * writes: Text markup (no `<script>`, no `javascript:` link), palette colours, pictures naming assets
 * the deck holds, unique block ids (409), guides inside the sheet; and the Text offsets and
 * replacement rules every text action shares.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cliInOneProcess, commitCount, studio } from '../helpers/studio.js'
import { FIXTURE_DECK, fixtureWorkspace } from '../helpers/fixture.js'

type Ws = Awaited<ReturnType<typeof fixtureWorkspace>>

cliInOneProcess()

const deckDir = (ws: Ws) => join(ws.dir, 'decks', FIXTURE_DECK)
const slideOf = (ws: Ws, id: string) => JSON.parse(readFileSync(join(deckDir(ws), 'slides', `${id}.json`), 'utf8'))
const blockOf = (ws: Ws, slideId: string, blockId: string) => slideOf(ws, slideId).blocks.find((b: { id: string }) => b.id === blockId)
const manifestOf = (ws: Ws) => JSON.parse(readFileSync(join(deckDir(ws), 'deck.json'), 'utf8'))

async function oneCommit(ws: Ws, args: string[], stdin?: string) {
  const before = await commitCount(ws.git)
  const r = await studio(ws.dir, [...args, '--json'], { stdin })
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  assert.equal(await commitCount(ws.git), before + 1, `${args.join(' ')}: one commit`)
  return r.json
}

/** A command that must fail with this status, code and pointer, writing nothing. */
async function refused(ws: Ws, args: string[], status: number, code: string, pointer?: string | RegExp, stdin?: string) {
  const before = await commitCount(ws.git)
  const r = await studio(ws.dir, [...args, '--json'], { stdin })
  assert.equal(r.json?.status, status, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  assert.equal(r.json.code, code, r.stdout)
  if (typeof pointer === 'string') assert.equal(r.json.pointer, pointer, r.stdout)
  else if (pointer) assert.match(r.json.pointer, pointer, r.stdout)
  assert.equal(await commitCount(ws.git), before, `${args.join(' ')}: nothing committed`)
  assert.equal(await ws.git('status', '--porcelain'), '', `${args.join(' ')}: nothing written`)
  return r.json
}

/** Commits a hand edit of the deck folder, as a user would with git. */
async function byHand(ws: Ws, edit: () => void) {
  edit()
  await ws.git('add', '-A')
  await ws.git('-c', 'user.name=hand', '-c', 'user.email=hand@studio.invalid', 'commit', '-qm', 'by hand')
}

const SCRIPT = '<script>alert(1)</script>'
const JS_LINK = '<a href="javascript:alert(1)">click</a>'

describe('the model check refuses Text markup outside the subset on every path that writes Text', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('block set: every Text of every kind, with the pointer of the field', async () => {
    for (const markup of [SCRIPT, JS_LINK]) {
      await refused(ws, ['block', 'set', 'title-body-2#b1', '/text', markup], 400, 'invalid_input', '/slides/title-body-2/blocks/1/text')
      await refused(ws, ['block', 'set', 'title-body-2#b2', '/items/1/text', markup], 400, 'invalid_input', '/slides/title-body-2/blocks/2/items/1/text')
      await refused(ws, ['block', 'set', 'two-columns-3#b3', '/rows/1/0', markup], 400, 'invalid_input', '/slides/two-columns-3/blocks/3/rows/1/0')
      await refused(ws, ['block', 'set', 'freeform-4#b1', '/text', markup], 400, 'invalid_input', '/slides/freeform-4/blocks/0/text')
      await refused(ws, ['block', 'set', 'freeform-4#b2', '/text', markup], 400, 'invalid_input', '/slides/freeform-4/blocks/1/text')
      await refused(ws, ['block', 'set', 'freeform-4#b3', '/caption', markup], 400, 'invalid_input', '/slides/freeform-4/blocks/2/caption')
      await refused(ws, ['block', 'set', 'freeform-4#b5', '/title', markup], 400, 'invalid_input', '/slides/freeform-4/blocks/4/title')
    }
    const refusal = await refused(ws, ['block', 'set', 'title-body-2#b1', '/text', SCRIPT], 400, 'invalid_input')
    assert.match(refusal.message, /<script> is not allowed/)
    assert.doesNotMatch(readFileSync(join(deckDir(ws), 'slides', 'title-body-2.json'), 'utf8'), /script/)
  })

  it('block insert and table set-cell', async () => {
    await refused(ws, ['block', 'insert', 'title-body-2', '--slot', 'body'], 400, 'invalid_input', '/block/text', JSON.stringify({ id: 'x1', kind: 'text', text: SCRIPT }))
    await refused(ws, ['block', 'insert', 'title-body-2', '--slot', 'body'], 400, 'invalid_input', '/block/items/0/text', JSON.stringify({ id: 'x1', kind: 'list', items: [{ text: JS_LINK }] }))
    await refused(ws, ['table', 'set-cell', 'two-columns-3#b3', '1', '1', SCRIPT], 400, 'invalid_input', '/slides/two-columns-3/blocks/3/rows/1/1')
    await refused(ws, ['table', 'set-cell', 'two-columns-3#b3', '0', '0', JS_LINK], 400, 'invalid_input', '/slides/two-columns-3/blocks/3/rows/0/0')
  })

  it('slide put, slide insert and slide patch, title-slide fields included', async () => {
    const put = { id: 'title-body-2', layout: 'title-body', blocks: [{ id: 'b1', kind: 'textbox', slot: 'body', text: 'x' }, { id: 'b2', kind: 'shape', shape: 'rect', slot: 'body', text: JS_LINK }] }
    await refused(ws, ['slide', 'put', 'title-body-2'], 400, 'invalid_input', '/slide/blocks/1/text', JSON.stringify(put))
    await refused(ws, ['slide', 'insert', '--section', 'opening'], 400, 'invalid_input', '/slide/title', JSON.stringify({ layout: 'title', title: SCRIPT }))
    await refused(ws, ['slide', 'insert', '--section', 'opening'], 400, 'invalid_input', '/slide/byline', JSON.stringify({ layout: 'title', title: 'Fine', byline: JS_LINK }))
    await refused(ws, ['slide', 'patch', 'title-1', '--set', `/subtitle=${SCRIPT}`], 400, 'invalid_input', '/mutations/0')
    const mutations = [{ kind: 'title.set', text: SCRIPT }]
    await refused(ws, ['slide', 'patch', 'title-1', '--input', JSON.stringify({ mutations })], 400, 'invalid_input', '/mutations/0')
    const blockSet = [{ kind: 'block.set', blockId: 'b1', path: '/text', value: JS_LINK }]
    await refused(ws, ['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations: blockSet })], 400, 'invalid_input', '/mutations/0')
  })

  it('text replace and tailor write replacements as plain text, never as tags', async () => {
    const replaced = await oneCommit(ws, ['text', 'replace', 'Margins grew.', SCRIPT])
    assert.equal(replaced.replacements, 1)
    assert.equal(blockOf(ws, 'title-body-2', 'b1').text, 'Costs fell by half at Acme.\n&lt;script&gt;alert(1)&lt;/script&gt;')
    await oneCommit(ws, ['tailor', '--replace', `${SCRIPT}=${JS_LINK}`])
    assert.equal(blockOf(ws, 'title-body-2', 'b1').text, 'Costs fell by half at Acme.\n&lt;a href="javascript:alert(1)"&gt;click&lt;/a&gt;')
  })

  it('refuses to carry markup written by hand through a write that touches its slide', async () => {
    await byHand(ws, () => {
      const slide = slideOf(ws, 'two-columns-3')
      slide.blocks[1].text = SCRIPT
      writeFileSync(join(deckDir(ws), 'slides', 'two-columns-3.json'), JSON.stringify(slide, null, 2) + '\n')
    })
    await refused(ws, ['block', 'set', 'two-columns-3#b2', '/text', 'After: hourly releases.'], 400, 'invalid_input', '/slides/two-columns-3/blocks/1/text')
    await refused(ws, ['text', 'replace', 'Before', 'Earlier'], 400, 'invalid_input')
    await refused(ws, ['tailor', '--replace', 'Before=Earlier'], 400, 'invalid_input')
    // Setting a value to itself changes nothing: no check to fail, and no commit.
    const commits = await commitCount(ws.git)
    const same = await studio(ws.dir, ['block', 'set', 'two-columns-3#b2', '/text', 'After: daily releases.', '--json'])
    assert.equal(same.code, 0, same.stdout)
    assert.equal(await commitCount(ws.git), commits)
    assert.equal(blockOf(ws, 'two-columns-3', 'b2').text, 'After: daily releases.')
  })
})

describe('the model check refuses colours that are neither hex nor a palette token of the deck', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('on backgrounds, text colours, fills, strokes, shadows and marks in markup', async () => {
    await refused(ws, ['slide', 'background', 'title-1', '--color', 'banana'], 400, 'invalid_input', '/slides/title-1/background')
    await refused(ws, ['deck', 'background', '--color', 'banana'], 400, 'invalid_input', '/manifest/background')
    await refused(ws, ['block', 'shadow', 'freeform-4#b1', '--color', 'banana'], 400, 'invalid_input', '/slides/freeform-4/blocks/0/shadow/color')
    await refused(ws, ['block', 'set', 'freeform-4#b1', '/fill', 'banana'], 400, 'invalid_input', '/slides/freeform-4/blocks/0/fill')
    await refused(ws, ['block', 'set', 'freeform-4#b4', '/stroke', 'banana'], 400, 'invalid_input', '/slides/freeform-4/blocks/3/stroke')
    await refused(ws, ['block', 'set', 'title-body-2#b1', '/color', 'banana'], 400, 'invalid_input', '/slides/title-body-2/blocks/1/color')
    await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,5', '--color', 'banana'], 400, 'invalid_input', '/slides/title-body-2/blocks/1/text')
    await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,5', '--highlight', 'banana'], 400, 'invalid_input', '/slides/title-body-2/blocks/1/text')
    await refused(ws, ['block', 'set', 'title-body-2#b1', '/text', '<span style="color:banana">x</span>'], 400, 'invalid_input', '/slides/title-body-2/blocks/1/text')
    await refused(ws, ['slide', 'patch', 'title-1', '--input', JSON.stringify({ mutations: [{ kind: 'background.set', background: 'banana' }] })], 400, 'invalid_input', '/mutations/0')
    const message = (await refused(ws, ['slide', 'background', 'title-1', '--color', 'constructor'], 400, 'invalid_input', '/slides/title-1/background')).message
    assert.match(message, /"constructor" is neither a hex colour .* nor a palette token of the deck \(ink, paper, accent, muted, rule, highlight, chart1, chart2, chart3, chart4, chart5, chart6\)/)
  })

  it('takes hex colours, the theme tokens and the tokens the brand kit adds', async () => {
    await oneCommit(ws, ['slide', 'background', 'title-1', '--color', 'accent'])
    await oneCommit(ws, ['block', 'set', 'freeform-4#b1', '/fill', '#c0ffee'])
    await refused(ws, ['block', 'set', 'freeform-4#b1', '/fill', 'brand'], 400, 'invalid_input', '/slides/freeform-4/blocks/0/fill')
    await oneCommit(ws, ['deck', 'brand-kit'], JSON.stringify({ name: 'Acme', palette: { brand: '#d9480f' } }))
    await oneCommit(ws, ['block', 'set', 'freeform-4#b1', '/fill', 'brand'])
    await oneCommit(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,5', '--color', 'brand'])
    assert.equal(blockOf(ws, 'freeform-4', 'b1').fill, 'brand')
    assert.equal(slideOf(ws, 'title-1').background, 'accent')
  })
})

describe('a picture names an asset the deck holds', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  const picture = (asset: string) => JSON.stringify({ id: 'p9', kind: 'picture', asset, pos: { x: 0, y: 0, w: 100, h: 100 } })

  it('refuses a picture of a missing asset on every path, with 404 and the pointer of its asset', async () => {
    await refused(ws, ['block', 'insert', 'freeform-4', '--slot', 'body'], 404, 'not_found', '/slides/freeform-4/blocks/5/asset', picture('nowhere'))
    await refused(ws, ['block', 'set', 'freeform-4#b3', '/asset', 'nowhere'], 404, 'not_found', '/slides/freeform-4/blocks/2/asset')
    await refused(ws, ['block', 'set', 'freeform-4#b3', '/asset', 'constructor'], 404, 'not_found', '/slides/freeform-4/blocks/2/asset')
    const put = { layout: 'picture-full', blocks: [{ id: 'p1', kind: 'picture', slot: 'media', asset: 'nowhere' }] }
    await refused(ws, ['slide', 'insert', '--section', 'detail'], 404, 'not_found', /\/slides\/picture-full-1\/blocks\/0\/asset$/, JSON.stringify(put))
    const mutations = [{ kind: 'block.insert', block: JSON.parse(picture('nowhere')) }]
    await refused(ws, ['slide', 'patch', 'freeform-4', '--input', JSON.stringify({ mutations })], 404, 'not_found', '/slides/freeform-4/blocks/5/asset')
  })

  it('takes an asset with a record, or with a file and no record', async () => {
    await oneCommit(ws, ['block', 'insert', 'freeform-4', '--slot', 'body'], picture('logo'))
    await byHand(ws, () => writeFileSync(join(deckDir(ws), 'assets', 'harbour@2x.png'), 'png'))
    await oneCommit(ws, ['block', 'set', 'freeform-4#p9', '/asset', 'harbour'])
    assert.equal(blockOf(ws, 'freeform-4', 'p9').asset, 'harbour')
  })
})

describe('block ids are unique on their slide: a taken id answers 409 id_taken', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('on block insert, slide insert, slide put and slide patch', async () => {
    await refused(ws, ['block', 'insert', 'freeform-4', '--slot', 'body'], 409, 'id_taken', '/block/id', JSON.stringify({ id: 'b1', kind: 'textbox', text: 'x', pos: { x: 0, y: 0, w: 10, h: 10 } }))
    const twice = { layout: 'title-body', blocks: [{ id: 'a', kind: 'text', slot: 'body', text: 'x' }, { id: 'a', kind: 'text', slot: 'body', text: 'y' }] }
    await refused(ws, ['slide', 'insert', '--section', 'opening'], 409, 'id_taken', '/slide/blocks/1/id', JSON.stringify(twice))
    await refused(ws, ['slide', 'put', 'title-body-2'], 409, 'id_taken', '/slide/blocks/1/id', JSON.stringify({ ...twice, id: 'title-body-2' }))
    const insert = [{ kind: 'block.insert', block: { id: 'b2', kind: 'text', text: 'x' }, slot: 'body' }]
    await refused(ws, ['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations: insert })], 409, 'id_taken', '/mutations/0/block/id')
    const set = [{ kind: 'set', pointer: '/blocks/2', value: { id: 'b1', kind: 'text', slot: 'body', text: 'x' } }]
    await refused(ws, ['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations: set })], 409, 'id_taken', '/mutations/0')
    assert.deepEqual(slideOf(ws, 'title-body-2').blocks.map((b: { id: string }) => b.id), ['title', 'b1', 'b2'])
  })
})

describe('guides lie inside the sheet', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('refuses a guide outside the sheet with its pointer instead of dropping it with a commit', async () => {
    await oneCommit(ws, ['deck', 'guides', '--add-vertical', '800', '--add-horizontal', '450'])
    await refused(ws, ['deck', 'guides', '--add-horizontal', '1200'], 400, 'invalid_input', '/manifest/guides/horizontal/1')
    await refused(ws, ['deck', 'guides', '--add-vertical', '1700'], 400, 'invalid_input', '/add/0/at')
    await refused(ws, ['deck', 'guides', '--set', '{"vertical":[100],"horizontal":[901]}'], 400, 'invalid_input', '/set/horizontal/0')
    await refused(ws, ['deck', 'guides', '--add-vertical', 'x'], 400, 'invalid_input')
    assert.deepEqual(manifestOf(ws).guides, { vertical: [800], horizontal: [450] })
  })
})

describe('Text offsets count code points; the CLI range keeps its sign', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  it('refuses --range -1,3 like the JSON form, with the pointer of the start', async () => {
    const cli = await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '-1,3', '--italic'], 400, 'invalid_input', '/range/0')
    const json = await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--input', JSON.stringify({ range: [-1, 3], marks: { italic: true } })], 400, 'invalid_input', '/range/0')
    assert.equal(cli.message, json.message)
    await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '3--1', '--italic'], 400, 'invalid_input', '/range/1')
  })

  it('styles the characters an agent counts: an emoji is one character', async () => {
    await oneCommit(ws, ['block', 'set', 'title-body-2#b1', '/text', '😀 Acme 𝒜'])
    const styled = await oneCommit(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '2,6', '--italic'])
    assert.equal(styled.text, '😀 <i>Acme</i> 𝒜')
    await oneCommit(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '7,8', '--underline'])
    assert.equal(blockOf(ws, 'title-body-2', 'b1').text, '😀 <i>Acme</i> <u>𝒜</u>')
    const beyond = await refused(ws, ['text', 'style', 'title-body-2#b1', '/text', '--range', '0,9', '--italic'], 400, 'invalid_input', '/range')
    assert.match(beyond.message, /ends beyond the text \(8 characters, counted in code points\)/)
  })

  it('keeps marks where they were when a replacement crosses a mark boundary', async () => {
    await oneCommit(ws, ['block', 'set', 'title-body-2#b1', '/text', 'At <i>Ac</i>me we ship.'])
    await oneCommit(ws, ['text', 'replace', 'Acme', 'Acme Corp'])
    assert.equal(blockOf(ws, 'title-body-2', 'b1').text, 'At <i>Ac</i>me Corp we ship.')
    await oneCommit(ws, ['tailor', '--replace', 'acme corp=Globex Corp'])
    assert.equal(blockOf(ws, 'title-body-2', 'b1').text, 'At <i>Globex</i> Corp we ship.')
  })
})

describe('ids that are names of JavaScript built-ins', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
  })
  after(() => ws.cleanup())

  const BUILTINS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype']

  it('find nothing before they exist: 404, never a built-in', async () => {
    for (const id of [...BUILTINS, '__proto__']) {
      const slide = await studio(ws.dir, ['slide', 'get', id, '--json'])
      assert.equal(slide.json?.status, id === '__proto__' ? 400 : 404, `${id}: ${slide.stdout}`)
      const block = await studio(ws.dir, ['block', 'get', `title-body-2#${id}`, '--json'])
      assert.equal(block.json?.status, id === '__proto__' ? 400 : 404, `${id}: ${block.stdout}`)
      await refused(ws, ['block', 'set', `${id}#b1`, '/text', 'x'], id === '__proto__' ? 400 : 404, id === '__proto__' ? 'invalid_input' : 'not_found')
      await refused(ws, ['slide', 'skip', id], id === '__proto__' ? 400 : 404, id === '__proto__' ? 'invalid_input' : 'not_found')
      await refused(ws, ['slide', 'move', id, '--to', 'detail'], id === '__proto__' ? 400 : 404, id === '__proto__' ? 'invalid_input' : 'not_found')
    }
    await refused(ws, ['slide', 'insert', '--section', 'opening', '--after', 'constructor'], 404, 'not_found', '/after', JSON.stringify({ layout: 'title', title: 'x' }))
    await refused(ws, ['tailor', '--skip', 'toString'], 404, 'not_found', '/skip/0')
    await refused(ws, ['text', 'replace', 'Acme', 'Globex', '--slides', 'valueOf'], 404, 'not_found', '/slideIds/0')
    const lint = await studio(ws.dir, ['deck', 'lint', '--slides', 'hasOwnProperty', '--json'])
    assert.equal(lint.json.status, 404)
  })

  it('are slide ids like any other: created, read, updated, leased, moved and removed', async () => {
    for (const id of BUILTINS) {
      const created = await oneCommit(ws, ['slide', 'new', '--layout', 'title-body', '--id', id, '--after', 'title-1'])
      assert.equal(created.slide.id, id)
      const read = await studio(ws.dir, ['slide', 'get', id, '--json'])
      assert.equal(read.json.slide.id, id, read.stdout)
      assert.equal(read.json.slide.layout, 'title-body')
      await oneCommit(ws, ['block', 'set', `${id}#title`, '/text', `Called ${id}`])
      assert.equal(blockOf(ws, id, 'title').text, `Called ${id}`)
      await oneCommit(ws, ['slide', 'move', id, '--to', 'detail'])
      await refused(ws, ['slide', 'new', '--layout', 'title-body', '--id', id], 409, 'id_taken', '/id')
    }
    const listed = await studio(ws.dir, ['slides', '--json'])
    assert.deepEqual(listed.json.slides.filter((s: { id: string }) => BUILTINS.includes(s.id)).map((s: { id: string }) => s.id).sort(), [...BUILTINS].sort())
    const lease = await studio(ws.dir, ['lease', 'constructor', '--json'], { env: { STUDIO_AUTHOR: 'Ada' } })
    assert.equal(lease.code, 0, lease.stdout)
    await refused(ws, ['block', 'set', 'constructor#title', '/text', 'x'], 409, 'leased')
    await oneCommit(ws, ['block', 'set', 'toString#title', '/text', 'Not leased'])
    await studio(ws.dir, ['lease', 'constructor', '--release', '--json'], { env: { STUDIO_AUTHOR: 'Ada' } })
    for (const id of BUILTINS) await oneCommit(ws, ['slide', 'remove', id])
    for (const id of BUILTINS) assert.equal(existsSync(join(deckDir(ws), 'slides', `${id}.json`)), false)
    await refused(ws, ['slide', 'new', '--layout', 'title-body', '--id', '__proto__'], 400, 'invalid_input', '/id')
  })

  it('are block ids, group tags and section ids like any other', async () => {
    for (const id of BUILTINS) {
      await oneCommit(ws, ['block', 'insert', 'freeform-4', '--slot', 'body'], JSON.stringify({ id, kind: 'textbox', text: id, pos: { x: 0, y: 0, w: 100, h: 50 } }))
      const got = await studio(ws.dir, ['block', 'get', `freeform-4#${id}`, '--json'])
      assert.equal(got.json.block.text, id)
      await oneCommit(ws, ['block', 'set', `freeform-4#${id}`, '/text', `${id}!`])
      await refused(ws, ['block', 'insert', 'freeform-4', '--slot', 'body'], 409, 'id_taken', '/block/id', JSON.stringify({ id, kind: 'textbox', text: 'x', pos: { x: 0, y: 0, w: 1, h: 1 } }))
    }
    await oneCommit(ws, ['block', 'group', 'freeform-4', '--blocks', 'constructor,toString', '--as', 'constructor'])
    const ungrouped = await oneCommit(ws, ['block', 'ungroup', 'freeform-4', '--group', 'constructor'])
    assert.deepEqual(ungrouped.ungrouped, [{ group: 'constructor', blockIds: ['constructor', 'toString'] }])
    const regrouped = await oneCommit(ws, ['block', 'regroup', 'freeform-4', '--blocks', 'toString', '--as', 'constructor'])
    assert.deepEqual(regrouped.blockIds, ['constructor', 'toString'])
    await refused(ws, ['block', 'set', 'freeform-4#constructor', '/group', '__proto__'], 400, 'invalid_input')
    for (const id of BUILTINS) await oneCommit(ws, ['block', 'remove', `freeform-4#${id}`])
    assert.deepEqual(slideOf(ws, 'freeform-4').blocks.map((b: { id: string }) => b.id), ['b1', 'b2', 'b3', 'b4', 'b5'])

    const sections = manifestOf(ws).sections.map((s: { id: string; title: string; slides: string[] }, i: number) => ({ ...s, id: BUILTINS[i] }))
    await oneCommit(ws, ['sections', 'set'], JSON.stringify(sections))
    assert.deepEqual(manifestOf(ws).sections.map((s: { id: string }) => s.id), ['constructor', 'toString'])
    const landed = await oneCommit(ws, ['slide', 'new', '--layout', 'title-body', '--section', 'toString'])
    assert.equal(landed.sectionId, 'toString')
    await refused(ws, ['slide', 'new', '--layout', 'title-body', '--section', 'valueOf'], 404, 'not_found', '/sectionId')
    await refused(ws, ['sections', 'set'], 400, 'invalid_input', '/sections/0/id', JSON.stringify([{ ...sections[0], id: '__proto__' }, sections[1]]))
  })

  it('never reach a prototype through a pointer', async () => {
    await refused(ws, ['block', 'set', 'title-body-2#b1', '/__proto__/polluted', '1'], 400, 'invalid_input', '/path')
    await refused(ws, ['block', 'set', 'title-body-2#b1', '/constructor/prototype/polluted', '1'], 400, 'invalid_input')
    await refused(ws, ['slide', 'patch', 'title-body-2', '--set', '/blocks/0/__proto__/polluted=1'], 400, 'invalid_input', '/mutations/0/pointer')
    await refused(ws, ['slide', 'patch', 'title-body-2', '--set', '/constructor/prototype/polluted=1'], 400, 'invalid_input', '/mutations/0/pointer')
    await refused(ws, ['slide', 'patch', 'title-body-2', '--input', JSON.stringify({ mutations: [{ kind: 'remove', pointer: '/toString' }] })], 400, 'invalid_input', '/mutations/0/pointer')
  })

  it('are deck ids, template names and asset ids like any other (or refused by the id pattern)', async () => {
    const template = await studio(ws.dir, ['template', 'create', FIXTURE_DECK, 'constructor', '--json'])
    assert.equal(template.json?.id ?? template.json?.template?.id, 'constructor', template.stdout)
    const slides = await studio(ws.dir, ['template', 'slides', 'constructor', '--json'])
    assert.equal(slides.code, 0, slides.stdout)
    const missing = await studio(ws.dir, ['template', 'slides', 'valueof', '--json'])
    assert.equal(missing.json?.status, 404, missing.stdout)
    const removed = await studio(ws.dir, ['template', 'delete', 'constructor', '--confirm', '--json'])
    assert.equal(removed.code, 0, removed.stdout)

    const version = await oneCommit(ws, ['version', 'save', '-m', 'constructor'])
    assert.equal(version.version?.note ?? version.note, 'constructor')

    await byHand(ws, () => writeFileSync(join(deckDir(ws), 'assets', 'constructor.png'), 'png'))
    await refused(ws, ['block', 'set', 'freeform-4#b3', '/asset', 'prototype'], 404, 'not_found')
    await oneCommit(ws, ['block', 'set', 'freeform-4#b3', '/asset', 'constructor'])
    const alt = await oneCommit(ws, ['block', 'alt', 'freeform-4#b3', 'A built-in name'])
    assert.equal(alt.file, `decks/${FIXTURE_DECK}/assets/constructor.json`)
    const got = await studio(ws.dir, ['block', 'get', 'freeform-4#b3', '--json'])
    assert.deepEqual(got.json.assets, [{ id: 'constructor', role: 'picture', alt: 'A built-in name' }])

    for (const id of ['constructor', 'prototype']) {
      const created = await studio(ws.dir, ['deck', 'create', `Deck ${id}`, '--id', id, '--from', 'blank', '--json'])
      assert.equal(created.json?.id, id, created.stdout)
      const info = await studio(ws.dir, ['info', '--deck', id, '--json'])
      assert.equal(info.json.id, id, info.stdout)
      const renamed = await studio(ws.dir, ['deck', 'rename', `Renamed ${id}`, '--deck', id, '--json'])
      assert.equal(renamed.json.title, `Renamed ${id}`, renamed.stdout)
    }
    for (const id of ['toString', 'valueOf', 'hasOwnProperty', '__proto__']) {
      const refusedId = await studio(ws.dir, ['deck', 'create', 'x', '--id', id, '--json'])
      assert.equal(refusedId.json?.status, 400, `${id}: ${refusedId.stdout}`)
      const info = await studio(ws.dir, ['info', '--deck', id, '--json'])
      assert.equal(info.json?.status, 400, `${id}: ${info.stdout}`)
    }
    const none = await studio(ws.dir, ['info', '--deck', 'hasownproperty', '--json'])
    assert.equal(none.json?.status, 404)
  })
})
