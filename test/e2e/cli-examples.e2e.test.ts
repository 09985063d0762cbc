/**
 * The examples of the actions only the CLI offers (deck pack/unpack/push/pull, import, export check,
 * fonts build): the contract (test/contract/contract.ts) runs the examples of actions on two or more
 * transports, and no other test runs these as written. Each runs here through the CLI on a copy of a
 * new user's workspace after its given steps, and its result must fit the action's output schema.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import AjvModule from 'ajv'
import addFormatsModule from 'ajv-formats'
import { ACTIONS, findAction } from '../../src/actions/index.js'
import type { Action } from '../../src/core/action.js'
import { AJV_OPTIONS } from '../../src/core/validate.js'
import { parseForm } from '../../src/transports/cli/form.js'
import { newUserWorkspace } from '../helpers/fixture.js'
import { cliInOneProcess, serve, studio, type Served, type TestWorkspace } from '../helpers/studio.js'

cliInOneProcess()

const Ajv = (AjvModule as unknown as { default: typeof AjvModule }).default ?? AjvModule
const addFormats = ((addFormatsModule as unknown as { default: unknown }).default ?? addFormatsModule) as (ajv: unknown) => void
const ajv = new (Ajv as unknown as new (options: object) => import('ajv').default)(AJV_OPTIONS)
addFormats(ajv)

/** Implemented actions on the CLI and on fewer than two of C, M, H: the ones the contract leaves out. */
const cliOnly = ACTIONS.filter((a) => a.implemented && a.cli && a.transportSet.has('C') && ['C', 'M', 'H'].filter((t) => a.transportSet.has(t as 'C')).length < 2)

/** Files of the user's that an example names, beside their workspace (as the new user's photo is). */
const USER_FILES: Record<string, Record<string, string>> = {
  'import.run': {
    'prototype.html': '<!doctype html><html><body><section><h1>Why now</h1><p>Costs fell by half.</p><ul><li>Faster builds</li></ul></section></body></html>',
  },
}

/** Examples that name a studio address (`studio serve`'s default): they run against a server on loopback instead. */
const ADDRESSED: Record<string, string> = { 'deck.push': 'to', 'deck.pull': 'from' }

async function viaCli(dir: string, action: Action, input: Record<string, unknown>): Promise<unknown> {
  const r = await studio(dir, [...parseForm(action.cli!).path, '--input', JSON.stringify(input), '--json'])
  assert.equal(r.code, 0, `${action.id}: ${JSON.stringify(input)} fails: ${r.stdout}${r.stderr}`)
  return r.json
}

describe('the examples of the actions only the CLI offers, on a new user\'s workspace', () => {
  let server: Served | undefined
  let remote: TestWorkspace | undefined

  before(async () => {
    // The studio that deck push sends to and deck pull takes from: another new user's workspace.
    remote = await newUserWorkspace()
    server = await serve(remote.dir)
  })
  after(async () => {
    await server?.stop()
    remote?.cleanup()
  })

  it('lists the actions the contract leaves out', () => {
    assert.deepEqual(cliOnly.map((a) => a.id).sort(), ['deck.pack', 'deck.pull', 'deck.push', 'deck.unpack', 'export.check', 'fonts.build', 'import.run'])
  })

  for (const action of cliOnly) {
    it(`${action.id}: the example succeeds after its given steps, with a result fitting its output schema`, async () => {
      const ws = await newUserWorkspace()
      try {
        for (const [name, content] of Object.entries(USER_FILES[action.id] ?? {})) writeFileSync(join(ws.dir, name), content)
        for (const [i, step] of (action.given ?? []).entries()) {
          const stepAction = findAction(step.action)
          assert.ok(stepAction?.implemented && stepAction.cli, `${action.id}: given step ${i} names ${step.action}, not an implemented CLI action`)
          await viaCli(ws.dir, stepAction, step.input)
          const info = (await viaCli(ws.dir, findAction('deck.info')!, {})) as { revision: number }
          assert.equal(info.revision, step.revision, `${action.id}: given step ${i} (${step.action}) leaves another revision than it names`)
        }
        const field = ADDRESSED[action.id]
        const input = field ? { ...action.example, [field]: server!.url } : action.example
        const result = await viaCli(ws.dir, action, input)
        const check = ajv.compile(action.output)
        assert.ok(check(result), `${action.id}: the result does not fit its output schema: ${ajv.errorsText(check.errors)}\n${JSON.stringify(result).slice(0, 400)}`)
      } finally {
        ws.cleanup()
      }
    })
  }
})
