/**
 * Review on a real branch: a test repository (the contract fixture on main), a feature branch with
 * commits by two authors through the CLI, main moving on meanwhile; then `studio review`,
 * `studio diff <ref> <ref>`, `--git-range`, and plain `git diff` through the textconv driver.
 *
 * The Markdown report is docs/review-example.md (commit shas masked); regenerate it with
 * STUDIO_WRITE_EXAMPLES=1 after changing the report on purpose.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import sharp from 'sharp'
import { fixtureWorkspace } from '../helpers/fixture.js'
import { BIN, cliInOneProcess, type CliResult, ROOT, studio } from '../helpers/studio.js'

// The CLI runs in one process for this file (test/helpers/studio.ts): none of these tests is about the process itself.
cliInOneProcess()

type Ws = Awaited<ReturnType<typeof fixtureWorkspace>>
const run = promisify(execFile)
const EXAMPLE = join(ROOT, 'docs', 'review-example.md')

async function ok(ws: Ws, args: string[], options: { stdin?: string } = {}): Promise<CliResult> {
  const r = await studio(ws.dir, args, options)
  assert.equal(r.code, 0, `studio ${args.join(' ')}: ${r.stdout} ${r.stderr}`)
  return r
}

const mask = (text: string) => text.replace(/\b[0-9a-f]{7}\b/g, '<sha>')

describe('reviewing deck changes on a branch', () => {
  let ws: Ws
  before(async () => {
    ws = await fixtureWorkspace()
    await ws.git('checkout', '-q', '-b', 'feature')
    await ok(ws, ['slide', 'patch', 'title-body-2', '--set', '/blocks/0/text="Pricing"', '--author', 'Alice Writer'])
    await ok(ws, ['slide', 'patch', 'title-body-2', '--set', '/blocks/1/text="Costs fell by two thirds at Acme.\\nMargins grew."', '--author', 'Alice Writer'])
    await ok(ws, ['block', 'nudge', 'freeform-4', '--blocks', 'b3', '--dx', '40', '--author', 'agent:layout'])
    await ok(ws, ['slide', 'new', '--layout', 'title-body', '--section', 'detail', '--after', 'freeform-4', '--id', 'next-steps', '--author', 'Alice Writer'])
    await ok(ws, ['slide', 'patch', 'next-steps', '--set', '/blocks/0/text="Next steps"', '--author', 'Alice Writer'])
    await ok(ws, ['slide', 'skip', 'freeform-4', '--author', 'agent:layout'])
    await ok(ws, ['slide', 'remove', 'title-1', '--author', 'Alice Writer'])
    const sections = [
      { id: 'opening', title: 'Opening', slides: ['two-columns-3'] },
      { id: 'detail', title: 'Detail', slides: ['title-body-2', 'freeform-4', 'next-steps'] },
    ]
    await ok(ws, ['sections', 'set', '--author', 'agent:layout'], { stdin: JSON.stringify(sections) })
    // Meanwhile main moves on; the review compares from the merge base, so this is not part of it.
    await ws.git('checkout', '-q', 'main')
    await ok(ws, ['deck', 'set', '/defaults/appearance', 'dark', '--author', 'Someone Else'])
    await ws.git('checkout', '-q', 'feature')
  })
  after(() => ws.cleanup())

  it('writes a Markdown report per deck changed on the branch, ready for a pull-request comment', async () => {
    const r = await ok(ws, ['review', '--base', 'main', '--head', 'feature', '--markdown'])
    const expected = [
      '## Deck review',
      '',
      '`main` (merge base <sha>) → `feature` (<sha>): 1 deck changed.',
      '',
      '### Quarterly review (`quarterly-review`)',
      '',
      '_revision 3 → 11 · slides: 1 added, 1 removed, 1 moved, 2 changed · 8 commits by Alice Writer, agent:layout_',
      '',
      '**Added**',
      '',
      "- **Slide 4 'Next steps'** (title-body) in section 'Detail'",
      '',
      '**Removed**',
      '',
      "- 'Quarterly review' (was slide 1)",
      '',
      '**Moved**',
      '',
      "- **Slide 1 'Before and after'**: moved from section 'Detail' to 'Opening'",
      '',
      '**Changed**',
      '',
      "- **Slide 2 'Pricing'**",
      "  - moved from section 'Opening' to 'Detail'",
      "  - title changed from 'Why now' to 'Pricing'",
      "  - block b1 text changed from 'Costs fell by half at Acme. Margins grew.' to 'Costs fell by two thirds at Acme. Margins grew.'",
      '- **Slide 3 (freeform-4)**',
      '  - block b3 moved 40 px right',
      '  - skipped',
      '',
      '<sub>Written by `studio review`. Slide numbers are positions in the newer deck; a removed slide keeps its old number.</sub>',
      '',
    ].join('\n')
    assert.equal(mask(r.stdout), expected)
    if (process.env.STUDIO_WRITE_EXAMPLES) writeFileSync(EXAMPLE, exampleDoc(r.stdout))
    assert.equal(mask(readFileSync(EXAMPLE, 'utf8')), mask(exampleDoc(r.stdout)), 'docs/review-example.md is stale: rerun with STUDIO_WRITE_EXAMPLES=1')
  })

  it('gives the same review as JSON and as plain text, and says when nothing changed', async () => {
    const json = (await ok(ws, ['review', '--base', 'main', '--head', 'feature', '--json'])).json
    assert.equal(json.decks.length, 1)
    assert.deepEqual(json.decks[0].authors, ['Alice Writer', 'agent:layout'])
    assert.deepEqual([json.decks[0].from, json.decks[0].to, json.decks[0].commits], [3, 11, 8])
    assert.deepEqual(json.decks[0].counts, { added: 1, removed: 1, moved: 1, changed: 2 })
    const text = await ok(ws, ['review', '--base', 'main'])
    assert.match(text.stdout, /^main \(merge base [0-9a-f]{7}\) → HEAD \([0-9a-f]{7}\): 1 deck changed\.\n\nQuarterly review \(quarterly-review\): revision 3 → 11/)
    assert.match(text.stdout, /\n {4}Slide 3 \(freeform-4\): block b3 moved 40 px right; skipped\n$/)
    const none = await ok(ws, ['review', '--base', 'feature', '--head', 'feature', '--markdown'])
    assert.match(none.stdout, /^## Deck review\n\nNo deck changed between `feature`/)
  })

  it('shows before and after pictures with --render: crops of touched blocks, thumbnails of slides added or removed', async () => {
    const r = await ok(ws, ['review', '--base', 'main', '--head', 'feature', '--markdown', '--render', '--image-base', 'https://ci.example/run/7'])
    assert.match(r.stdout, /<sub>title<\/sub> <img src="https:\/\/ci\.example\/run\/7\/quarterly-review-title-body-2-title\.light\.before\.png" alt="before" width="320"> → <img src="[^"]+title-body-2-title\.light\.after\.png"/)
    assert.match(r.stdout, /<sub>\(before: none\)<\/sub> → <img src="[^"]+quarterly-review-next-steps\.light\.after\.png"/)
    assert.match(r.stdout, /<img src="[^"]+quarterly-review-title-1\.light\.before\.png" alt="before" width="320"> → <sub>\(after: none\)<\/sub>/)
    const json = (await ok(ws, ['review', '--base', 'main', '--head', 'feature', '--json', '--render'])).json
    for (const crop of json.crops as { before: string | null; after: string | null }[]) {
      for (const file of [crop.before, crop.after]) if (file) assert.ok(existsSync(join(ws.dir, file)), file)
    }
    const thumb = await sharp(join(ws.dir, '.studio/review/quarterly-review-next-steps.light.after.png')).metadata()
    assert.deepEqual([thumb.width, thumb.height], [640, 360])
  })

  it('answers an unknown ref with 404 and exit code 3', async () => {
    const r = await studio(ws.dir, ['review', '--base', 'no-such-branch', '--json'])
    assert.equal(r.code, 3)
    assert.equal(r.json.code, 'not_found')
    assert.match(r.json.message, /no-such-branch/)
    const option = await studio(ws.dir, ['review', '--base', '--upload-pack=touch', '--json'])
    assert.notEqual(option.code, 0)
  })

  it('diffs git refs with studio diff <ref> <ref> and --git-range', async () => {
    const byRefs = await ok(ws, ['diff', 'main', 'feature', '--json'])
    // Two dots (and two refs) compare the tips: main's own change shows, reversed.
    assert.equal(byRefs.json.changes[0], 'Default appearance changed from dark to light')
    assert.equal(byRefs.json.from, 'main')
    assert.equal(byRefs.json.decks[0].from, 4)
    const twoDots = await ok(ws, ['diff', '--git-range', 'main..feature', '--json'])
    assert.deepEqual(twoDots.json.changes, byRefs.json.changes)
    // Three dots compare from the merge base, as the review and a pull request do.
    const threeDots = await ok(ws, ['diff', '--git-range', 'main...feature', '--json'])
    const review = (await ok(ws, ['review', '--base', 'main', '--head', 'feature', '--json'])).json
    assert.deepEqual(threeDots.json.changes, review.decks[0].changes)
    assert.deepEqual(threeDots.json.changes, [
      "Slide 1 'Before and after': moved from section 'Detail' to 'Opening'",
      "Slide 2 'Pricing': moved from section 'Opening' to 'Detail'; title changed from 'Why now' to 'Pricing'; block b1 text changed from 'Costs fell by half at Acme. Margins grew.' to 'Costs fell by two thirds at Acme. Margins grew.'",
      'Slide 3 (freeform-4): block b3 moved 40 px right; skipped',
      "Slide 4 'Next steps' added (title-body) in section 'Detail'",
      "Slide 1 'Quarterly review' removed",
    ])
    const human = await ok(ws, ['diff', 'HEAD~1', 'HEAD'])
    assert.equal(human.stdout, "Slide 1 'Before and after': moved from section 'Detail' to 'Opening'\nSlide 2 'Pricing': moved from section 'Opening' to 'Detail'\n")
    const bad = await studio(ws.dir, ['diff', 'main', 'nope', '--json'])
    assert.equal(bad.code, 3)
    assert.equal(bad.json.pointer, '/toRef')
    const mixed = await studio(ws.dir, ['diff', '--git-range', 'main...feature', '--from-ref', 'main', '--json'])
    assert.equal(mixed.code, 2)
    assert.equal(mixed.json.pointer, '/gitRange')
  })

  it('makes plain git diff and git log -p print slide text through the textconv driver', async () => {
    const studioCommand = `${process.execPath} ${BIN}`
    writeFileSync(join(ws.dir, '.gitattributes'), readFileSync(join(ROOT, '.gitattributes')))
    await ws.git('config', 'diff.studio.textconv', `${studioCommand} diff --textconv`)
    await ws.git('config', 'diff.studio.cachetextconv', 'true')
    const { stdout } = await run('git', ['diff', 'main...feature', '--', 'decks/quarterly-review/slides/title-body-2.json'], { cwd: ws.dir })
    assert.match(stdout, /\n-\[title\] heading \(in title\)\n-  Why now\n\+\[title\] heading \(in title\)\n\+  Pricing\n|\n \[title\] heading \(in title\)\n-  Why now\n\+  Pricing\n/)
    assert.match(stdout, /\n-  Costs fell by half at Acme\.\n\+  Costs fell by two thirds at Acme\.\n {3}Margins grew\./)
    assert.doesNotMatch(stdout, /"text":/)
    const manifest = await run('git', ['diff', 'main...feature', '--', 'decks/quarterly-review/deck.json'], { cwd: ws.dir })
    assert.match(manifest.stdout, /\n Section opening: Opening\n-  title-1\n-  title-body-2\n/)
    assert.match(manifest.stdout, /\n\+  next-steps\n/)
    assert.doesNotMatch(manifest.stdout, /revision/i)
    const log = await run('git', ['log', '-p', '-1', '--format=%an', 'feature~2', '--', 'decks/quarterly-review'], { cwd: ws.dir })
    assert.match(log.stdout, /^agent:layout\n/)
    assert.match(log.stdout, /\n-Slide freeform-4 \(freeform\)\n\+Slide freeform-4 \(freeform\) \[skipped\]\n/)
    const textconv = await ok(ws, ['diff', '--textconv', 'decks/quarterly-review/slides/next-steps.json'])
    assert.equal(textconv.stdout, 'Slide next-steps (title-body)\n[title] heading (in title)\n  Next steps\n[body] text (in body)\n')
  })
})

function exampleDoc(report: string): string {
  return [
    '# Example: a `studio review` report',
    '',
    'This is the real output of `studio review --base main --head feature --markdown` on a test repository,',
    'made by test/e2e/review.e2e.test.ts: the contract fixture deck on `main`, then a branch `feature` with',
    'eight commits by a writer (`Alice Writer`) and an agent (`agent:layout`), while `main` moved on with a change',
    'of its own (which the report leaves out: it compares from the merge base). Posted as a pull-request comment,',
    'it renders as below. How to run it in CI: [review.md](review.md).',
    '',
    '---',
    '',
    report,
  ].join('\n')
}
