/**
 * The merge driver trusts nothing it reads: real `git merge` through the built bin/studio.js (the
 * driver registered by `studio init`) of a hostile branch whose deck files carry ids and layouts
 * that would name files outside the deck, or with a link in the way of a file the merge writes.
 * The merge must stop as a conflict with a clear message, and no file may appear outside the
 * repository, nor at the bad path inside it.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { after, describe, it } from 'node:test'
import { cliInOneProcess, type CliResult, gitRun, studio, workspace } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

type Ws = Awaited<ReturnType<typeof workspace>>

async function ok(ws: Ws, args: string[]): Promise<CliResult> {
  const r = await studio(ws.dir, args)
  assert.equal(r.code, 0, `studio ${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  return r
}

const cleanups: (() => void)[] = []
after(() => cleanups.forEach((clean) => clean()))

/** A workspace holding the brand sample as deck "brand" on main, and a branch "feature" from it. */
async function brandWorkspace(): Promise<Ws> {
  const ws = await workspace()
  cleanups.push(ws.cleanup)
  await ok(ws, ['deck', 'create', 'Brand', '--from', 'brand-sample', '--json'])
  await ws.git('branch', 'feature')
  return ws
}

const deckDir = (ws: Ws) => join(ws.dir, 'decks', 'brand')
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'))

/** On branch feature, by hand (as a hostile branch would): a slide file `slides/<file>.json` holding `slide`, named in section opening. */
async function hostileSlide(ws: Ws, file: string, slide: Record<string, unknown>, listed: string = String(slide.id)): Promise<void> {
  await ws.git('checkout', '-q', 'feature')
  const manifest = readJson(join(deckDir(ws), 'deck.json'))
  manifest.sections[0].slides.push(listed)
  writeFileSync(join(deckDir(ws), 'deck.json'), JSON.stringify(manifest, null, 2) + '\n')
  writeFileSync(join(deckDir(ws), 'slides', `${file}.json`), JSON.stringify(slide, null, 2) + '\n')
  await ws.git('add', '-A', 'decks')
  await ws.git('commit', '-q', '-m', 'hostile')
  await ws.git('checkout', '-q', 'main')
}

/** Every entry under a folder, as relative paths (links listed, not followed). */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: false } as { recursive: true }).map(String).sort()
}

describe('a hostile branch through real git merge and the studio merge driver', () => {
  const tag = randomBytes(6).toString('hex')
  // Whatever a regression wrote outside is removed (the tests assert there is none).
  cleanups.push(() => readdirSync(tmpdir()).filter((name) => name.includes(`merge-evil-${tag}`)).forEach((name) => rmSync(join(tmpdir(), name), { recursive: true, force: true })))
  const values: [string, string][] = [
    ['a slide id climbing out of the repository', `../../../../merge-evil-${tag}`],
    ['a slide id climbing out of the deck, inside the repository', `../merge-evil-${tag}`],
    ['an absolute slide id', `${tmpdir()}/merge-evil-${tag}`],
    ['a slide id holding a NUL', `evil\u0000${tag}`],
    ['a slide id holding a backslash', `..\\..\\merge-evil-${tag}`],
  ]
  for (const [what, id] of values) {
    it(`stops on ${what}: a conflict naming the value, nothing written at the path it names`, async () => {
      const ws = await brandWorkspace()
      await hostileSlide(ws, `x${tag}`, { id, layout: 'title-body', blocks: [] })
      await ok(ws, ['deck', 'rename', 'Brand, main'])
      const before = tree(ws.dir)
      const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
      assert.equal(merge.code, 1, merge.out)
      assert.match(merge.out, /studio: refused to merge decks\/brand\/deck\.json: theirs \(feature\) has \/manifest\/sections\/0\/slides\/12 ".*" must match pattern/)
      assert.ok(merge.out.includes(`${JSON.stringify(id)} must match pattern`), merge.out)
      assert.equal(readJson(join(deckDir(ws), 'deck.json')).title, 'Brand, main', 'ours on disk')
      for (const at of [resolve(deckDir(ws), 'slides', `${id}.json`), resolve(deckDir(ws), 'slides', `${id}-1.json`)]) assert.ok(!existsSync(at), at)
      assert.deepEqual(readdirSync(tmpdir()).filter((name) => name.includes(`merge-evil-${tag}`)), [])
      // Only what git itself checked out of theirs (the slide file under its own, safe name) is new.
      assert.deepEqual(tree(ws.dir).filter((p) => !before.includes(p) && !p.startsWith('.git') && !p.startsWith('.studio')), [`decks/brand/slides/x${tag}.json`])
      const status = await ok(ws, ['merge', 'status', '--json'])
      assert.deepEqual(status.json.conflicts.map((c: { id: string; kind: string }) => [c.id, c.kind]), [['brand:refused/deck.json', 'refused']])
      assert.match(status.json.text, /Deck brand: not merged, theirs \(feature\) has .*; ours is kept\. Open: ours is on disk; git merge --abort/)
      const theirs = await studio(ws.dir, ['merge', 'resolve', '1', '--theirs', '--json'])
      assert.equal(theirs.code, 2)
      assert.equal(theirs.json.code, 'refused')
      assert.match(theirs.json.message, /Keep ours \(--ours\) or abort the merge \(git merge --abort\)/)
      const kept = await ok(ws, ['merge', 'resolve', '1', '--ours'])
      assert.match(kept.stdout, /^Settled 1 \[brand:refused\/deck\.json\]/)
      assert.match((await ok(ws, ['merge', 'status'])).stdout, /; ours is kept\. Settled with ours \(main\)\./)
      assert.equal(readJson(join(deckDir(ws), 'deck.json')).title, 'Brand, main', 'ours still on disk')
      assert.equal((await gitRun(ws, 'merge', '--abort')).code, 0)
    })
  }

  it('stops on a layout that is not one of the 22, which would name the file of a slide kept under a new id', async () => {
    const ws = await brandWorkspace()
    const layout = `../../../../merge-evil-${tag}-layout`
    // Both sides add slide "dup" with different content: theirs would be kept as "<layout>-1".
    await hostileSlide(ws, 'dup', { id: 'dup', layout, blocks: [] })
    await ws.git('checkout', '-q', 'main')
    await ok(ws, ['slide', 'new', '--layout', 'title-body', '--section', 'opening', '--after', 'title-1', '--id', 'dup'])
    const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
    assert.ok(!existsSync(resolve(deckDir(ws), 'slides', `${layout}-1.json`)), 'nothing written outside the repository')
    assert.deepEqual(readdirSync(tmpdir()).filter((name) => name.includes(`merge-evil-${tag}-layout`)), [])
    assert.equal(merge.code, 1, merge.out)
    assert.match(merge.out, /studio: refused to merge decks\/brand\/[a-z/.-]+: theirs \(feature\) has \/slides\/dup\/layout "\.\.\/\.\.\/\.\.\/\.\.\/merge-evil-[0-9a-f]+-layout" is not one of the 22 allowed values/)
    assert.equal((await gitRun(ws, 'merge', '--abort')).code, 0)
  })

  it('never writes through a link in the way of a slide the merge keeps under a new id: a conflict, the link\'s target never created', async () => {
    const ws = await brandWorkspace()
    const outside = mkdtempSync(join(tmpdir(), 'merge-outside-'))
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }))
    // Both sides let studio name a new slide: both get title-body-17; theirs would be kept as title-body-18.
    await ws.git('checkout', '-q', 'feature')
    await ok(ws, ['slide', 'new', '--layout', 'title-body', '--section', 'market', '--after', 'section-1'])
    await ok(ws, ['slide', 'patch', 'title-body-17', '--set', '/blocks/0/text="Feature slide"'])
    await ws.git('checkout', '-q', 'main')
    await ok(ws, ['slide', 'new', '--layout', 'title-body', '--section', 'market', '--after', 'section-1'])
    await ok(ws, ['slide', 'patch', 'title-body-17', '--set', '/blocks/0/text="Main slide"'])
    const target = join(outside, 'written-through-the-link.json')
    symlinkSync(target, join(deckDir(ws), 'slides', 'title-body-18.json'))
    const merge = await gitRun(ws, 'merge', '--no-edit', 'feature')
    assert.ok(!existsSync(target), 'nothing written through the link')
    assert.deepEqual(readdirSync(outside), [])
    assert.equal(merge.code, 1, merge.out)
    assert.match(merge.out, /studio: refused to merge decks\/brand\/[a-z0-9/.-]+: a slide kept under a new id could not be written: decks\/brand\/slides\/title-body-18\.json is a symbolic link; a merge does not write through links/)
    assert.equal(dirname(target), outside)
  })
})
