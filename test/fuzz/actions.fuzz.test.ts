/**
 * Fuzzing every action of the table over HTTP (RELIABILITY.md "Bad input"): fast-check builds inputs
 * from each action's own input schema (mostly valid, sometimes not), salted with the fixture's ids,
 * path-like strings and JavaScript built-in names, plus wholly random JSON, and sends them to a real
 * `studio serve` on a copy of the contract fixture. Expected of every answer: never a 500, always the
 * one error shape, 501 only for an action declared but not built or an unbuilt part a built action
 * names by its input member. Expected afterwards: nothing
 * written outside the workspace, `git status` clean, `git fsck` clean, every deck still valid.
 *
 * STUDIO_FUZZ_RUNS inputs per action (default 20); STUDIO_FUZZ_SEED replays a run.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { request } from 'undici'
import { ACTIONS } from '../../src/actions/index.js'
import type { Schema } from '../../src/model/schema.js'
import { ERROR_CODES } from '../../src/core/errors.js'
import { serve, studio, type Served } from '../helpers/studio.js'
import { fixtureWorkspace } from '../helpers/fixture.js'

const RUNS = Number(process.env.STUDIO_FUZZ_RUNS) || 20
const SEED = Number(process.env.STUDIO_FUZZ_SEED) || Date.now() % 2 ** 31

/** Strings that have broken things before: built-in names, paths, pointers, markup, odd Unicode. */
const HOSTILE = [
  'constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype',
  '../../etc/passwd', '/etc/passwd', '..', '.', '', ' ', '~', '%2e%2e%2f', 'C:\\Windows', '\\\\server\\share',
  '/', '/~1', '/0', '/-', '<script>alert(1)</script>', '<a href="javascript:alert(1)">x</a>', 'banana',
  '--upload-pack=touch pwned', '-rf', 'a\u0000b', '👩‍👩‍👧‍👦', 'x'.repeat(5000), 'templates', 'all',
]
/** The fixture's ids, so that inputs reach deep into the handlers. */
const FIXTURE_IDS = ['quarterly-review', 'title-1', 'title-body-2', 'two-columns-3', 'freeform-4', 'title', 'b1', 'b2', 'b3', 'b4', 'b5', 'opening', 'detail', 'logo', 'blank', 'brand-sample', '3', '1']

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [fc.constantFrom(...HOSTILE), fc.constantFrom(...FIXTURE_IDS), fc.string({ maxLength: 40 })]
  if (typeof schema.pattern === 'string') {
    try {
      options.push(fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= 200))
    } catch {
      // a pattern fast-check cannot generate from: the others still apply
    }
  }
  return fc.oneof(...options)
}

/** An arbitrary for a JSON Schema of the table: mostly inside it, sometimes just outside. */
function arbitraryFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 })
  if (Array.isArray(schema.enum)) return fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...(schema.enum as unknown[])) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) })
  if ('const' in schema) return fc.oneof({ weight: 9, arbitrary: fc.constant(schema.const) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) })
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryFor(s, depth + 1)))
  switch (schema.type) {
    case 'string':
      return stringFor(schema)
    case 'integer':
      return fc.oneof(fc.integer({ min: -2, max: 12 }), fc.constantFrom(-1, 0, 2 ** 31, Number.MAX_SAFE_INTEGER), fc.double({ noNaN: true }))
    case 'number':
      return fc.oneof(fc.double({ min: -2000, max: 4000, noNaN: true }), fc.constantFrom(0, -0, 1e308, -1e308, 0.5))
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(arbitraryFor(schema.items as Schema, depth + 1), { maxLength: 4 })
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>
      const required = new Set((schema.required ?? []) as string[])
      const record: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [key, value] of Object.entries(props)) record[key] = arbitraryFor(value, depth + 1)
      const optional = Object.keys(props).filter((k) => !required.has(k))
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in props) as never[] }).chain((value) =>
        fc.oneof(
          { weight: 12, arbitrary: fc.constant(value) },
          // a member the schema does not list, named like a built-in sometimes
          { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'zz').map((k) => ({ ...value, [k]: 1 })) },
          { weight: 1, arbitrary: fc.constant(Object.fromEntries(Object.entries(value as object).filter(([k]) => !optional.includes(k)))) },
        ),
      )
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** Every file under a folder with its size and mtime, to see that nothing outside changed. */
function listing(dir: string, skip: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name)
      if (path === skip) continue
      if (e.isDirectory()) walk(path)
      else {
        const st = statSync(path)
        out.push(`${path} ${st.size} ${st.mtimeMs}`)
      }
    }
  }
  walk(dir)
  return out.sort()
}

const http = ACTIONS.filter((a) => a.transportSet.has('H'))

describe(`every HTTP action fuzzed with its own schema (${RUNS} inputs each, seed ${SEED})`, () => {
  let ws: { dir: string }
  let server: Served
  let parent: string
  let outside: string[]
  const failures: string[] = []
  const statuses = new Map<number, number>()

  before(async () => {
    // The workspace sits three folders deep in a folder of its own: a path input that escapes it
    // (`../../x`, an absolute path under the parent) shows up in the parent's listing.
    const fixture = await fixtureWorkspace({ contract: true })
    parent = mkdtempSync(join(tmpdir(), 'studio-fuzz-'))
    ws = { dir: join(parent, 'a', 'b', 'ws') }
    cpSync(fixture.dir, ws.dir, { recursive: true })
    fixture.cleanup()
    writeFileSync(join(parent, 'a', 'sentinel.json'), '{}\n')
    outside = listing(parent, ws.dir)
    server = await serve(ws.dir, [], { ttl: 1800 })
  })

  after(async () => {
    await server?.stop()
    if (failures.length) process.stderr.write(`fuzz failures (seed ${SEED}):\n${failures.join('\n')}\n`)
    rmSync(parent, { recursive: true, force: true })
  })

  for (const action of http) {
    it(`${action.id}: no 500, the one error shape${action.implemented ? '' : ', 501'}`, async () => {
      const input = fc.oneof({ weight: 4, arbitrary: arbitraryFor(action.input) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) })
      await fc.assert(
        fc.asyncProperty(input, async (body) => {
          const response = await request(`${server.url}/api/actions/${action.id}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-studio-author': 'agent:fuzz' },
            body: JSON.stringify(body),
          })
          const text = await response.body.text()
          const status = response.statusCode
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          if (status === 200) return
          let error: { status?: number; code?: string; message?: string; pointer?: string; details?: { implemented?: boolean } }
          try {
            error = JSON.parse(text)
          } catch {
            throw new Error(`${status} without a JSON body: ${text.slice(0, 200)}`)
          }
          assert.ok(error.code && error.code in ERROR_CODES, `${action.id}: an error without a known code: ${text.slice(0, 300)}`)
          assert.equal(error.status, status)
          // 503 switched_off is a kill switch an earlier input turned on (admin.flag), answered on purpose.
          assert.ok(status < 500 || status === 501 || (status === 503 && error.code === 'switched_off'), `${action.id} answered ${status} ${error.code}: ${error.message} for ${JSON.stringify(body).slice(0, 300)}`)
          // A built action answers 501 only for a part of it that is not built, by name: the input member's
          // pointer and details.implemented false (hosted uploads, batched export...), never by accident.
          if (status === 501 && action.implemented) {
            assert.ok(error.details?.implemented === false && /^\/[A-Za-z]/.test(error.pointer ?? '') && (body as Record<string, unknown>)[error.pointer!.slice(1).split('/')[0]] !== undefined, `${action.id}: 501 from a built action, not naming an unbuilt part it was given: ${text.slice(0, 300)}`)
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      ).catch((error: Error) => {
        // fast-check's message names the counterexample; the assertion that failed is its cause.
        const cause = (error as Error & { cause?: unknown }).cause
        failures.push(`${action.id}: ${error.message.split('\n').slice(0, 6).join(' | ')}${cause ? ` | cause: ${String(cause instanceof Error ? cause.message : cause).slice(0, 400)}` : ''}`)
        throw error
      })
    })
  }

  it('wrote nothing outside the workspace and left git and every deck consistent', async (t) => {
    t.diagnostic(`answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`)
    // Inputs that never pass validation would test nothing: a good share must reach the handlers.
    const reached = (statuses.get(200) ?? 0) + (statuses.get(404) ?? 0) + (statuses.get(409) ?? 0)
    assert.ok(reached > (RUNS * http.filter((a) => a.implemented).length) / 10, `too few inputs got past validation: ${reached}`)
    assert.deepEqual(listing(parent, ws.dir), outside)
    // Nothing tracked changed and nothing new appeared where decks live; renders and builds may leave their files elsewhere.
    assert.equal(execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ws.dir, encoding: 'utf8' }), '')
    assert.equal(execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', 'decks', 'templates', 'studio.json'], { cwd: ws.dir, encoding: 'utf8' }), '')
    execFileSync('git', ['fsck', '--full'], { cwd: ws.dir, stdio: 'pipe' })
    const decks = await studio(ws.dir, ['deck', 'list', '--include-trashed', '--json'])
    for (const deck of decks.json.decks as { id: string }[]) {
      const valid = await studio(ws.dir, ['validate', `decks/${deck.id}`, '--json'])
      assert.equal(valid.json.valid, true, `${deck.id}: ${JSON.stringify(valid.json.issues?.slice(0, 3))}`)
    }
  })
})
