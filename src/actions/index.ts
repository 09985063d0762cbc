/**
 * THE TABLE: every action of the spec, and the ones we designed to fill its groups, in one list.
 *
 * Built once per process. A duplicate id, CLI form or MCP name throws here, at load, so the table can
 * never hold two answers to one name.
 */
import type { Action } from '../core/action.js'
import { commandId, parseForm } from '../transports/cli/form.js'
import account from './account/index.js'
import admin from './admin/index.js'
import asset from './asset/index.js'
import block from './block/index.js'
import comment from './comment/index.js'
import deck from './deck/index.js'
import exportGroup from './export/index.js'
import logo from './logo/index.js'
import notification from './notification/index.js'
import presence from './presence/index.js'
import render from './render/index.js'
import share from './share/index.js'
import slide from './slide/index.js'
import theme from './theme/index.js'
import validate from './validate/index.js'
import version from './version/index.js'

export const ACTIONS: readonly Action[] = [
  ...deck, ...theme, ...validate, ...slide, ...block, ...version, ...render, ...exportGroup,
  ...asset, ...logo, ...comment, ...notification, ...share, ...account, ...admin, ...presence,
]

const byId = new Map<string, Action>()
const byMcp = new Map<string, Action>()
const byCli = new Map<string, Action>()
for (const action of ACTIONS) {
  if (byId.has(action.id)) throw new Error(`Duplicate action id ${action.id}`)
  byId.set(action.id, action)
  if (action.mcp) {
    if (byMcp.has(action.mcp)) throw new Error(`Duplicate MCP name ${action.mcp} (${action.id}, ${byMcp.get(action.mcp)!.id})`)
    byMcp.set(action.mcp, action)
  }
  if (action.cli) {
    const key = commandId(parseForm(action.cli))
    if (byCli.has(key)) throw new Error(`Duplicate CLI command "${key}" (${action.id}, ${byCli.get(key)!.id})`)
    byCli.set(key, action)
  }
}

export function findAction(id: string): Action | undefined {
  return byId.get(id)
}

export function findByMcp(name: string): Action | undefined {
  return byMcp.get(name)
}
