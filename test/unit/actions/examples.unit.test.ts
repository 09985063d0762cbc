import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { ACTIONS, findAction } from '../../../src/actions/index.js'
import type { Action, GivenStep } from '../../../src/core/action.js'
import { AJV_OPTIONS } from '../../../src/core/validate.js'
import { exampleLines } from '../../../src/transports/cli/commands.js'
import { covered } from '../../contract/contract.js'
import { compileShared } from '../../helpers/schemas.js'
import { mintThreadId } from '../../../src/comments/store.js'

/**
 * What a new user's deck holds after `studio deck create "Quarterly review"` and some given steps, as
 * far as an example can name it. The contract test runs the examples; this reads them, so an id or a
 * revision a new user does not have is named here, with the action, before anything runs.
 */
class NewDeck {
  revision = 0
  decks = new Set(['quarterly-review'])
  templates = new Set(['blank'])
  sections = new Set(['main'])
  slides = new Map<string, Set<string>>([['title-1', new Set()]])
  assets = new Set<string>()
  versions = 0
  trashed = false
  /** Comment threads by id, and the comments revision (comment writes name it as their baseRevision). */
  threads = new Set<string>()
  commentsRevision = 0

  apply(step: GivenStep, problem: (text: string) => void): void {
    const input = step.input as Record<string, any>
    const stepAction = findAction(step.action)!
    const at = this.revisionFor(stepAction)
    if (input.baseRevision !== undefined && input.baseRevision !== at) problem(`given ${step.action} passes baseRevision ${input.baseRevision}, the deck is at ${at}`)
    this.check(stepAction, input, problem)
    if (step.action === 'slide.insert') {
      this.slides.set(input.slide.id, new Set((input.slide.blocks ?? []).map((b: { id: string }) => b.id)))
      if (input.slide.id === undefined) problem('given slide.insert names no slide id: later steps could not name the slide')
    } else if (step.action === 'logo.insert') {
      this.assets.add(input.slug)
      if (input.slideId !== 'none') this.slides.get(input.slideId)?.add('logo')
    } else if (step.action === 'template.create') this.templates.add(input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'))
    else if (step.action === 'version.save') this.versions++
    else if (step.action === 'deck.trash') this.trashed = true
    else if (step.action === 'comment.add') {
      this.threads.add(mintThreadId('quarterly-review', input.anchor, input.body.text, this.commentsRevision, (id) => this.threads.has(id)))
      this.commentsRevision++
    } else if (step.action === 'assist.propose') {
      const anchor = { kind: 'slide' as const, slideId: input.slideIds[0] as string }
      this.threads.add(mintThreadId('quarterly-review', anchor, `Proposal (${input.kind}) for ${input.slideIds.join(', ')}`, this.commentsRevision, (id) => this.threads.has(id)))
      this.commentsRevision++
    } else if (step.action.startsWith('comment.')) this.commentsRevision++
    else problem(`given ${step.action}: this test does not know what it makes; teach NewDeck.apply`)
    this.revision = step.revision
  }

  /** The revision an action's baseRevision names: the comments revision for comment writes, else the deck's. */
  revisionFor(action: Action): number {
    return action.deck?.kind === 'current' && action.deck.guard === false ? this.commentsRevision : this.revision
  }

  /** Every id the input names is one this deck has; every revision one it has had. */
  check(action: Action, input: Record<string, any>, problem: (text: string) => void): void {
    const slide = (id: unknown, at: string) => {
      if (typeof id === 'string' && id !== 'all' && id !== 'none' && !this.slides.has(id)) problem(`${at} names slide ${id}, which the new deck does not have`)
    }
    const block = (id: unknown, at: string) => {
      const blocks = this.slides.get(input.slideId)
      if (typeof id === 'string' && !blocks?.has(id)) problem(`${at} names block ${id}, which slide ${input.slideId} does not have`)
    }
    const blockAction = /^(block|text|table|chart|shader|picture)\./.test(action.id)
    for (const [key, value] of Object.entries(input)) {
      const values = Array.isArray(value) ? value : [value]
      if (key === 'slideId' || key === 'slideIds' || key === 'skip') values.forEach((v) => slide(v, `/${key}`))
      else if (key === 'after') (blockAction ? block : slide)(value, '/after')
      else if ((key === 'blockId' || key === 'blockIds') && action.id !== 'shader.insert') values.forEach((v) => block(v, `/${key}`))
      else if ((key === 'from' || key === 'to') && action.id === 'block.connect') block(value, `/${key}`)
      else if ((key === 'from' || key === 'to') && action.id === 'diff.run' && !(typeof value === 'number' && value <= this.revision)) problem(`/${key} names revision ${value}; the deck is at ${this.revision}`)
      else if (key === 'assetId' && !this.assets.has(value)) problem(`/assetId names asset ${value}, which the new deck does not have`)
      else if (key === 'sectionId' && !this.sections.has(value)) problem(`/sectionId names section ${value}; the new deck has ${[...this.sections]}`)
      else if ((key === 'sourceDeckId' || key === 'deckId') && !this.decks.has(value)) problem(`/${key} names deck ${value}`)
      else if (key === 'id' && /^template\.(update|rename|delete|setDefault|slides)$/.test(action.id) && !this.templates.has(value)) problem(`/id names template ${value}`)
      else if (key === 'id' && /^deck\.(copy|trash|restore|remove|setDefault)$/.test(action.id) && !this.decks.has(value)) problem(`/id names deck ${value}`)
      else if (key === 'n' && !(value >= 1 && value <= this.versions)) problem(`/n names version ${value}; the new deck has ${this.versions}`)
      else if ((key === 'threadId' || key === 'proposalId') && !this.threads.has(value)) problem(`/threadId names thread ${value}; the new deck has ${[...this.threads].join(', ') || 'none'}`)
      else if (key === 'anchor' && value.slideId !== undefined) {
        slide(value.slideId, '/anchor/slideId')
        if (value.blockId !== undefined && !this.slides.get(value.slideId)?.has(value.blockId)) problem(`/anchor names block ${value.blockId}, which slide ${value.slideId} does not have`)
      } else if (key === 'sections') for (const section of value) section.slides.forEach((v: string) => slide(v, '/sections'))
    }
    if (action.id === 'deck.restore' && !this.trashed) problem('restores a deck that is not in the trash')
  }
}

describe('the examples a new user reads', () => {
  const ajv = new (Ajv as unknown as typeof Ajv.default)(AJV_OPTIONS)
  ;(addFormats as unknown as (a: unknown) => void)(ajv)
  const validators = new Map<string, ReturnType<typeof compileShared>>()
  const validatorOf = (action: Action) => validators.get(action.id) ?? validators.set(action.id, compileShared(ajv, action.input)).get(action.id)!

  it('name only ids and revisions a deck just made by studio deck create has after the given steps, on the command line too', () => {
    const problems: string[] = []
    for (const action of covered) {
      const problem = (text: string) => problems.push(`${action.id}: ${text}`)
      const deck = new NewDeck()
      for (const step of action.given ?? []) {
        const stepAction = findAction(step.action)
        // On the command line, or (an action the spec gives no command line: assist.propose) over HTTP, which --help shows as a curl line.
        if (!stepAction?.implemented || !stepAction.transportSet.has('H') || (!stepAction.cli && stepAction.transportSet.has('C'))) {
          problem(`given ${step.action} is not an implemented action on the command line and HTTP`)
          continue
        }
        const validate = validatorOf(stepAction)
        if (!validate(step.input)) problem(`given ${step.action}: ${ajv.errorsText(validate.errors)}`)
        deck.apply(step, problem)
      }
      deck.check(action, action.example as Record<string, any>, problem)
      const rev = action.example.baseRevision
      if (rev !== undefined && rev !== deck.revisionFor(action)) problem(`passes baseRevision ${rev}; after its given steps the new deck is at ${deck.revisionFor(action)}`)
      if (action.cli) {
        const lines = exampleLines(action, findAction).join('\n').split('\n')
        const last = lines[lines.length - 1]
        if (rev !== undefined && !last.endsWith(`--rev ${rev}`)) problem(`the command line ${last} does not end with --rev ${rev}`)
        for (const [i, step] of (action.given ?? []).entries()) {
          const shown = lines[i + 1]
          if (!shown?.endsWith(`# revision ${step.revision}`)) problem(`--help shows given step ${i} as ${shown}, without the revision it leaves`)
          if (step.input.baseRevision !== undefined && !shown?.includes(`--rev ${step.input.baseRevision} `)) problem(`--help shows given step ${i} as ${shown}, without --rev ${step.input.baseRevision}`)
        }
        for (const id of ['slideId', 'blockId', 'assetId'].map((k) => action.example[k]).filter((v): v is string => typeof v === 'string')) {
          if (!last.includes(id)) problem(`the command line ${last} does not show ${id}`)
        }
      }
    }
    assert.deepEqual(problems, [])
  })

  it('shows the given steps before the example in --help, as command lines, and a lone example alone', () => {
    const align = findAction('block.align')!
    const [first, then] = exampleLines(align, findAction)
    assert.match(first, /^First, on a deck made by studio deck create "Quarterly review" \(revision 0\):\n<%= config.bin %> logo insert github --slide none --rev 0 {2}# revision 1\necho '\{"id":"freeform-4",.*\}' \| <%= config.bin %> slide insert --section main --after title-1 --rev 1 {2}# revision 2$/)
    assert.equal(then, 'Then, at revision 2:\n<%= config.bin %> block align freeform-4 --blocks b1,b5 --edge left --rev 2')
    assert.deepEqual(exampleLines(findAction('deck.rename')!, findAction), ["<%= config.bin %> deck rename 'Quarterly review, final' --rev 0"])
  })

  it('leaves no implemented action with an example written for the old fixture (baseRevision 3)', () => {
    assert.deepEqual(ACTIONS.filter((a) => a.implemented && a.example.baseRevision === 3).map((a) => a.id), [])
  })
})
