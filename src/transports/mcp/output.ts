/**
 * The `outputSchema` of an action's MCP tool: exactly what its `structuredContent` carries.
 *
 * A successful call carries the result (an object result as it is; anything else wrapped as
 * `{ result }`, see `structured()` in server.ts). A failed call (`isError: true`) carries the one
 * error body instead, and the MCP SDK client (1.32) validates `structuredContent` against the
 * tool's `outputSchema` even then, so the schema names both: the result, or the error body.
 */
import type { Action } from '../../core/action.js'
import { ERROR_CODES } from '../../core/errors.js'
import { int, obj, str, type Schema } from '../../model/schema.js'

/** The error body a tool result with `isError: true` carries (StudioError.toJSON()). */
export const TOOL_ERROR: Schema = {
  type: 'object',
  description: 'With isError: true, the error body (docs/errors.md).',
  required: ['status', 'code', 'message'],
  properties: {
    status: int(),
    code: { enum: Object.keys(ERROR_CODES) },
    message: str(),
  },
  additionalProperties: true,
}

/** What `structuredContent` carries on success: the object result, or a non-object one as `{ result }`. */
export function structuredResultSchema(output: Schema): Schema {
  if (output.type === 'object') return output
  const { $defs, ...rest } = output
  return { ...obj({ result: rest }), ...($defs ? { $defs } : {}) }
}

/** The tool's outputSchema of an action: the structured result, or (isError) the error body. */
export function mcpOutputSchema(action: Action): Schema {
  return toolOutputSchema(action.output)
}

/**
 * A tool's outputSchema for a result schema: the structured result, or (isError) the error body.
 * Shared definitions travel without their descriptions (every tool repeats them; GET
 * /api/actions/{id} and /openapi.json carry them described): they constrain exactly the same.
 */
export function toolOutputSchema(output: Schema): Schema {
  const { $defs, ...success } = structuredResultSchema(output)
  const defs = Object.fromEntries(Object.entries(($defs as Record<string, Schema>) ?? {}).map(([name, def]) => [name, undescribed(def)]))
  return {
    type: 'object',
    description: 'structuredContent: the result below, or the error body when the tool result has isError: true.',
    anyOf: [success, { $ref: '#/$defs/ToolError' }],
    $defs: { ...defs, ToolError: TOOL_ERROR },
  }
}

/** A schema without its `description` annotations (a property named description stays). */
function undescribed(node: unknown, inProperties = false): any {
  if (Array.isArray(node)) return node.map((child) => undescribed(child))
  if (!node || typeof node !== 'object') return node
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => inProperties || key !== 'description')
      .map(([key, value]) => [key, undescribed(value, !inProperties && key === 'properties')]),
  )
}
