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
  description: 'With isError: true, the one error body of every transport: status, code, message, and pointer, path, currentRevision, current, holder or details where the code has them.',
  required: ['status', 'code', 'message'],
  properties: {
    status: int({ description: 'The HTTP status of the code.' }),
    code: { enum: Object.keys(ERROR_CODES), description: 'The error code (docs/errors.md).' },
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

/** The tool's outputSchema: the structured result, or (isError) the error body. */
export function mcpOutputSchema(action: Action): Schema {
  const { $defs, ...success } = structuredResultSchema(action.output)
  return {
    type: 'object',
    description: 'structuredContent: the result below, or the error body when the tool result has isError: true.',
    anyOf: [success, { $ref: '#/$defs/ToolError' }],
    $defs: { ...(($defs as Record<string, Schema>) ?? {}), ToolError: TOOL_ERROR },
  }
}
