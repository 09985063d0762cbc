/**
 * Every MCP tool's hints, as a real client reads them from tools/list, against what its action
 * declares it does (commits, writes files, fetches, removes or overwrites), with the special cases
 * named here one by one: a declaration that changes must change this file too.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { Action } from '../../src/core/action.js'
import { ACTIONS } from '../../src/actions/index.js'
import type { Schema } from '../../src/model/schema.js'
import { BIN, workspaceWithDeck } from '../helpers/studio.js'

/** Tools that reach out of the machine: a URL of their input, a configured catalogue, a web page. */
const FETCHES = ['deck_asset_add', 'deck_asset_capture', 'deck_logo_refresh', 'deck_set_slide_background_picture']
/** Tools that commit nothing but write files on every call: not read-only. */
const WRITE_FILES = ['deck_build', 'deck_export', 'deck_export_markdown', 'deck_logo_refresh', 'deck_render', 'deck_repair', 'deck_sheet']
/** Reads that write files only when an input asks (diff's render crops, a shader render's out): read-only. */
const WRITE_ON_REQUEST = ['deck_diff', 'deck_shader_render']
/** Tools that remove or overwrite what the caller may want back. */
const DESTRUCTIVE = [
  // A comment turned into a tombstone: restorable for 30 days, as a trashed deck is, but gone from every listing.
  'deck_delete_comment',
  'deck_delete_template',
  // Access taken away: a grant removed, a link revoked or given a new token, sharing stopped, a key revoked, sessions ended.
  'deck_remove_access',
  'deck_remove_block',
  'deck_remove_slide',
  'deck_remove_table_columns',
  'deck_remove_table_rows',
  'deck_replace_slide',
  'deck_replace_text',
  'deck_revoke_share_link',
  'deck_revoke_token',
  'deck_rotate_share_link',
  'deck_set_sections',
  'deck_sign_out',
  'deck_stop_sharing',
  'deck_tailor',
  'deck_trash',
  'deck_version_restore',
]
/** Writes that only add or bring back: named so that a change to them fails here. */
const NOT_DESTRUCTIVE = ['deck_restore', 'deck_create', 'deck_copy', 'deck_asset_add', 'deck_new_slide']

function env(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, NO_COLOR: '1', STUDIO_ROOT: '', STUDIO_AUTHOR: '' })) if (value !== undefined) out[key] = value
  return out
}

/** The top-level input members of an action that take an http(s) URL to fetch (not a link written into a slide). */
function urlMembers(action: Action): string[] {
  const properties = (action.input.properties ?? {}) as Record<string, Schema>
  return Object.entries(properties)
    .filter(([, schema]) => typeof schema.pattern === 'string' && schema.pattern.startsWith('^https?:'))
    .map(([name]) => name)
}

const has = (schema: Schema, member: string) => Object.hasOwn((schema.properties ?? {}) as object, member)

describe('MCP tool annotations against what each action declares it does', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let client: Client
  let tools: Map<string, NonNullable<Tool['annotations']>>
  const offered = ACTIONS.filter((a) => a.implemented && a.mcp && a.transportSet.has('M'))

  before(async () => {
    ws = await workspaceWithDeck('Hints')
    client = new Client({ name: 'mcp-annotations', version: '1.0.0' })
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', ws.dir], cwd: ws.dir, env: env(), stderr: 'pipe' }))
    tools = new Map((await client.listTools()).tools.map((t) => [t.name, t.annotations!]))
  })
  after(async () => {
    await client?.close()
    ws?.cleanup()
  })

  it('names only tools that exist in its lists', () => {
    for (const name of [...FETCHES, ...WRITE_FILES, ...WRITE_ON_REQUEST, ...DESTRUCTIVE, ...NOT_DESTRUCTIVE]) assert.ok(tools.has(name), name)
    assert.equal(tools.size, offered.length)
  })

  it('gives every tool all four hints and its title', () => {
    for (const action of offered) {
      const hints = tools.get(action.mcp!)!
      assert.deepEqual(Object.keys(hints).sort(), ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title'], action.mcp!)
      assert.equal(hints.title, action.label)
    }
  })

  it('marks read-only exactly the tools that commit nothing and write no file unasked', () => {
    for (const action of offered) {
      const name = action.mcp!
      const readOnly = !action.mutates && !WRITE_FILES.includes(name)
      assert.equal(tools.get(name)!.readOnlyHint, readOnly, `${name} (${action.id}, mutates ${action.mutates})`)
    }
    for (const name of WRITE_FILES) assert.equal(tools.get(name)!.readOnlyHint, false, name)
    for (const name of WRITE_ON_REQUEST) assert.equal(tools.get(name)!.readOnlyHint, true, name)
  })

  it('has every read that names an output file declare that it writes one', () => {
    for (const action of offered.filter((a) => !a.mutates && has(a.input, 'out'))) {
      assert.ok([...WRITE_FILES, ...WRITE_ON_REQUEST].includes(action.mcp!), `${action.mcp} takes out: list it as writing files`)
    }
  })

  it('marks open-world exactly the tools that fetch, and every tool taking a URL to fetch is one of them', () => {
    const open = [...tools].filter(([, hints]) => hints.openWorldHint).map(([name]) => name)
    assert.deepEqual(open.sort(), [...FETCHES].sort())
    for (const action of offered) if (urlMembers(action).length) assert.ok(FETCHES.includes(action.mcp!), `${action.mcp} takes ${urlMembers(action).join(', ')}`)
  })

  it('marks destructive exactly the listed tools, never a read, never an undo', () => {
    const destructive = [...tools].filter(([, hints]) => hints.destructiveHint).map(([name]) => name)
    assert.deepEqual(destructive.sort(), [...DESTRUCTIVE].sort())
    for (const name of NOT_DESTRUCTIVE) assert.equal(tools.get(name)!.destructiveHint, false, name)
    for (const [name, hints] of tools) if (hints.readOnlyHint) assert.equal(hints.destructiveHint, false, name)
  })

  it('calls every read idempotent, and a write idempotent only where it says so', () => {
    for (const action of offered) {
      const hints = tools.get(action.mcp!)!
      if (hints.readOnlyHint) assert.equal(hints.idempotentHint, true, action.mcp!)
      else assert.equal(hints.idempotentHint, action.annotations?.idempotent ?? false, action.mcp!)
    }
    for (const name of ['deck_create', 'deck_trash', 'deck_restore', 'deck_new_slide', 'deck_asset_add']) assert.equal(tools.get(name)!.idempotentHint, false, name)
    for (const name of ['deck_update_block', 'deck_set_chart_data', 'deck_export', 'deck_render']) assert.equal(tools.get(name)!.idempotentHint, true, name)
  })
})
