/**
 * The deck's asset files stay consistent across the actions that move decks and pictures: removing a
 * picture leaves its asset (pruning is only ever asked for), a pruned variant stays in git history,
 * and deck copy, pack/unpack, templates and slide import carry every file of the assets they move
 * (kept sources and materialized variants included), byte for byte.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { cliInOneProcess, commitCount, studio, workspaceWithDeck } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

describe('asset files across decks', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  const folder = (deckId: string) => join(ws.dir, 'decks', deckId, 'assets')
  const files = (deckId: string) =>
    Object.fromEntries(
      readdirSync(folder(deckId))
        .sort()
        .map((n) => [n, n.endsWith('.json') ? JSON.parse(readFileSync(join(folder(deckId), n), 'utf8')).id : readFileSync(join(folder(deckId), n)).toString('base64')]),
    )
  const run = async (args: string[]) => {
    const r = await studio(ws.dir, [...args, '--json'])
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout} ${r.stderr}`)
    return r.json
  }
  let variant = ''

  before(async () => {
    ws = await workspaceWithDeck('Harbour')
    const raw = Buffer.alloc(300 * 200 * 3)
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 13) % 251
    writeFileSync(join(ws.dir, 'quay.png'), await sharp(raw, { raw: { width: 300, height: 200, channels: 3 } }).png().toBuffer())
    await run(['asset', 'add', 'quay.png', '--role', 'picture', '--alt', 'The quay'])
    await run(['asset', 'add', 'quay.png', '--id', 'plate', '--role', 'picture', '--alt', 'The quay, screened', '--two-tone'])
    await run(['slide', 'patch', 'title-1', '--input', JSON.stringify({ mutations: [{ kind: 'block.insert', block: { id: 'p', kind: 'picture', asset: 'quay', pos: { x: 900, y: 200, w: 600, h: 400 } } }, { kind: 'block.insert', block: { id: 'q', kind: 'picture', asset: 'plate', pos: { x: 100, y: 600, w: 300, h: 200 } } }] })])
    await run(['block', 'dither', 'title-1#p', '--cell', '3'])
    variant = (await run(['picture', 'materialize', 'all'])).written[0]
  })
  after(() => ws?.cleanup())

  it('deck copy, pack and unpack, a template and a deck made from it carry every asset file byte for byte', async () => {
    const original = files(ws.deckId)
    assert.ok(Object.keys(original).some((n) => n.includes('.source.')) && Object.keys(original).some((n) => n.includes('.dither-')), Object.keys(original).join(' '))
    await run(['deck', 'copy', ws.deckId, '--name', 'Harbour copy', '--id', 'harbour-copy'])
    assert.deepEqual(files('harbour-copy'), original)
    await run(['deck', 'pack', ws.deckId, '--out', 'harbour.zip'])
    await run(['deck', 'unpack', 'harbour.zip', '--as', 'harbour-unpacked'])
    assert.deepEqual(files('harbour-unpacked'), original)
    await run(['template', 'create', ws.deckId, 'Harbour template'])
    await run(['deck', 'create', 'From the template', '--from', 'harbour-template', '--id', 'from-template'])
    assert.deepEqual(files('from-template'), original)
    // Each made deck renders its dithered picture from its own files.
    const rendered = await run(['render', 'title-1', '--deck', 'from-template'])
    assert.equal(rendered.renders.length, 1)
  })

  it('slide import brings the files of the assets its pictures use', async () => {
    await run(['deck', 'create', 'Elsewhere', '--from', 'blank', '--id', 'elsewhere'])
    const imported = await run(['slide', 'import', ws.deckId, 'title-1', '--deck', 'elsewhere'])
    const ids = imported.assets.map((a: { id: string }) => a.id).sort()
    assert.deepEqual(ids, ['plate', 'quay'])
    const original = files(ws.deckId)
    assert.deepEqual(files('elsewhere'), original)
  })

  it('removing a picture keeps its asset; a prune asked for removes only variants, which stay in history', async () => {
    const before = files(ws.deckId)
    await run(['block', 'remove', 'title-1#p', '--deck', ws.deckId])
    assert.deepEqual(files(ws.deckId), before, 'no file goes with the picture')
    const commits = await commitCount(ws.git)
    const pruned = await run(['picture', 'materialize', 'all', '--prune', '--deck', ws.deckId])
    assert.deepEqual(pruned.pruned, [variant])
    assert.equal(await commitCount(ws.git), commits + 1)
    const after = files(ws.deckId)
    assert.deepEqual(Object.keys(after), Object.keys(before).filter((n) => !variant.endsWith(n)))
    // The pruned file is one git show away.
    const shown = await ws.git('show', `HEAD~1:${variant}`)
    assert.ok(shown.length > 0)
    assert.equal((await ws.git('status', '--porcelain')).split('\n').filter((l) => l.trim() && !/quay\.png|harbour\.zip/.test(l)).length, 0)
  })
})
