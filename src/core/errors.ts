/**
 * The one error shape of every transport, and the closed set of error codes.
 *
 * Each code maps to exactly one HTTP status and one CLI exit code; MCP reports every one of them as a
 * tool result with `isError: true` and this same object as structured content. A transport never
 * invents a code of its own: it throws `fail(code, ...)` or lets the engine do it.
 */

/** code → [HTTP status, CLI exit code]. Documented in docs/errors.md (generated from this table). */
export const ERROR_CODES = {
  invalid_input: [400, 2],
  unknown_field: [400, 2],
  refused: [400, 2],
  name_refused: [400, 2],
  fetch_refused: [400, 2],
  unauthorized: [401, 5],
  forbidden: [403, 5],
  reauth_required: [403, 5],
  read_only: [403, 5],
  not_found: [404, 3],
  stale_revision: [409, 4],
  leased: [409, 4],
  id_taken: [409, 4],
  frame_stale: [409, 4],
  workspace_busy: [409, 4],
  method_not_allowed: [405, 2],
  payload_too_large: [413, 2],
  rate_limited: [429, 1],
  unprocessable: [422, 2],
  internal: [500, 1],
  storage: [500, 1],
  render_failed: [500, 1],
  missing_program: [500, 1],
  not_implemented: [501, 6],
  fetch_failed: [502, 1],
  switched_off: [503, 1],
  shutting_down: [503, 1],
} as const satisfies Record<string, readonly [number, number]>

export type ErrorCode = keyof typeof ERROR_CODES

/**
 * The CLI exit code of a check that ran and found errors (an action whose `reportsErrors` holds for
 * its result: `studio validate` on an invalid deck, `studio deck lint` with error findings). The
 * result is printed as on success, `--json` included; only the exit code tells CI to stop. Distinct
 * from the error codes' exit codes, so a script can tell "found errors" from "could not check".
 */
export const FINDINGS_EXIT_CODE = 7

/** Short titles of the codes: RFC 9457 `title` of an HTTP problem (the same for every occurrence of a code). */
export const ERROR_TITLES: Record<ErrorCode, string> = {
  invalid_input: 'Invalid input',
  unknown_field: 'Unknown field',
  refused: 'Refused',
  name_refused: 'Name refused',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  reauth_required: 'Re-authentication required',
  read_only: 'Read-only',
  not_found: 'Not found',
  stale_revision: 'Stale revision',
  leased: 'Slide leased',
  id_taken: 'Id taken',
  frame_stale: 'Shader frame stale',
  workspace_busy: 'Workspace busy',
  method_not_allowed: 'Method not allowed',
  payload_too_large: 'Payload too large',
  rate_limited: 'Too many requests',
  unprocessable: 'Unprocessable',
  fetch_refused: 'Fetch refused',
  fetch_failed: 'Fetch failed',
  internal: 'Internal error',
  storage: 'Storage error',
  render_failed: 'Render failed',
  missing_program: 'Program missing',
  not_implemented: 'Not implemented',
  switched_off: 'Switched off',
  shutting_down: 'Shutting down',
}

/** The RFC 9457 `type` of a code: a stable URN (docs/errors.md documents each). */
export const errorType = (code: ErrorCode) => `urn:deck-studio:error:${code}`

export const ERROR_DOCS: Record<ErrorCode, string> = {
  invalid_input: 'The input does not match the action schema; `path` is the validator path, `pointer` the JSON pointer of the offending value.',
  unknown_field: 'The input carries a field the action does not know; `pointer` names it.',
  refused: 'The input is well-formed but the action refuses it (for example `confirm` not true, a bundle that fails its checks).',
  unauthorized: 'A bearer token is required (off loopback) and is missing or invalid.',
  forbidden: 'The caller lacks the capability for this action.',
  reauth_required: 'The action needs a sign-in within the last 10 minutes on this session (share.settings on the page); sign in again and retry. Nothing was written.',
  rate_limited: 'Too many calls of this kind from this address (share.requestAccess); `details.retryAfter` (and HTTP `Retry-After`) says how many seconds to wait. Nothing was written.',
  read_only: 'The target cannot be changed: a shipped template, a trashed deck, or the package folder when no workspace was found (run `studio init`).',
  not_found: 'An id names nothing: deck, slide, block, template, version or action. A write naming a deck that does not exist answers this before its input is checked (not a missing baseRevision).',
  stale_revision: '`baseRevision` is not the current revision, or `baseTag` (HTTP `If-Match`) is not the current content\'s tag, or the checkout of a running server moved (a branch switch, a reset) since that content was last read there; `currentRevision`, `currentTag` and `current` (the document) are attached. Nothing was written.',
  leased: 'Another author holds the lease on the slide; `holder` names them, and `currentRevision` and `current` come as with a stale revision. Retry with force to override.',
  id_taken: 'The id asked for is already in use.',
  frame_stale: "A shader frame was drawn from a recipe that has moved on: its `frameKey` is not the key of the block's recipe as the document reads now. `currentRevision`, `current` (the document) and `details.frameKey` (the key now) are attached; nothing was written. Draw the frame again from the current recipe.",
  workspace_busy: 'The deck stayed locked by another writer beyond the wait limit, or git\'s index is held by another git command (or by a lock studio cannot call its own); nothing was written, and `message` says how to clear it.',
  method_not_allowed: 'HTTP only: the path exists but not for this method; the `Allow` header (and `details.allow`) lists the methods it answers.',
  payload_too_large: 'The request body, a bundle or a file handed in exceeds its documented cap, or decoding a file went over its memory budget (docs/media.md); `details.limit` names the budget when one was hit. Nothing was written.',
  unprocessable: 'A file handed in is well-formed but over a documented processing limit (docs/media.md): its dimensions or pixel count, an SVG\'s element, filter-primitive or `<use>` instance count, or the time budget of the job that decodes it (which was stopped). The message names the limit, `details.limit` the budget when one was hit; nothing was written.',
  fetch_refused: 'A URL the server was asked to fetch (a bundle\'s `fromUrl`) is refused by the guard: not http or https, credentials in the URL, more than 5 redirects, or a host that is or resolves to a loopback, private, link-local, shared, multicast or reserved address (allowed only with STUDIO_FETCH_ALLOW_PRIVATE; see docs/security.md). Nothing was fetched from that address.',
  fetch_failed: 'A URL the server fetched did not deliver: no connection, a timeout, or an answer other than a success. The message names the host, never what it answered.',
  internal: 'An unexpected failure; the deck is unchanged.',
  storage: 'The file system or git refused an operation; the deck is unchanged or was repaired.',
  render_failed: 'The renderer or an image codec failed: no Chromium to render with (the message names the three places it is looked for), or Chromium or sharp failed. Nothing was written.',
  not_implemented: 'The action is declared in the table but not built on this instance (`implemented: false`).',
  name_refused: 'account.setName refused the name: one fixed sentence per rule, the same whatever the name, `details.reason` naming the rule (length, letter, control, bidi, reserved, confusable, taken). Nothing was stored.',
  switched_off: 'A kill switch (admin.flag) has turned this capability off on this studio; `details.flag` names the switch (docs/access.md lists what each of the 13 stops: `readOnly` every write, `maintenance` every write and every call of the page, `exports` export.* and build.*, `uploads` asset bytes, and so on). Nothing was written; retry once an admin turns it back on.',
  shutting_down: 'This `studio serve` is stopping (SIGTERM or SIGINT): it finishes the requests it had begun, writes included, and takes no new one. Nothing was done; send the request again to another instance, or once the server is back (`GET /readyz` answers 200).',
  missing_program: 'A program the action runs is not installed (LibreOffice\'s `soffice`, poppler\'s `pdftoppm` or `pdfinfo`, a Python with fontTools): the message names it and the Debian package that provides it, `details.program` and `details.package` carry both. Nothing was written.',
}

/** The JSON body every transport sends for a failure. */
export interface ErrorBody {
  status: number
  code: ErrorCode
  message: string
  path?: string
  pointer?: string
  currentRevision?: number
  /** The current content's version tag (beside currentRevision). */
  currentTag?: string
  current?: unknown
  holder?: unknown
  details?: unknown
}

export class StudioError extends Error {
  readonly code: ErrorCode
  readonly extra: Omit<ErrorBody, 'status' | 'code' | 'message'>

  constructor(code: ErrorCode, message: string, extra: Omit<ErrorBody, 'status' | 'code' | 'message'> = {}) {
    super(message)
    this.name = 'StudioError'
    this.code = code
    this.extra = extra
  }

  get status(): number {
    return ERROR_CODES[this.code][0]
  }

  get exitCode(): number {
    return ERROR_CODES[this.code][1]
  }

  toJSON(): ErrorBody {
    return { status: this.status, code: this.code, message: this.message, ...this.extra }
  }
}

/** Throws the one error type. `fail('not_found', 'No slide "x"')`. */
export function fail(code: ErrorCode, message: string, extra: Omit<ErrorBody, 'status' | 'code' | 'message'> = {}): never {
  throw new StudioError(code, message, extra)
}

/** Any thrown value as the error shape; unknown errors become `internal` without leaking a stack. */
export function toStudioError(error: unknown): StudioError {
  if (error instanceof StudioError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new StudioError('internal', message)
}
