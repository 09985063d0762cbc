/**
 * The discovery documents of `studio serve`, generated from the action table: the OpenAPI 3.1
 * description (GET /openapi.json), the agent manifest (GET /api/agent) and the short machine guide
 * (GET /llms.txt).
 *
 * Pure functions: no server, no I/O. Nothing about an action is written here; every path, schema,
 * label and flag comes from the table, so a declared action shows up (with its 501) the moment it is
 * declared, and `implemented` flips when its `run` lands.
 */
import { ACTIONS } from '../../actions/index.js'
import { deckUnpack } from '../../actions/deck/bundle.js'
import type { Action } from '../../core/action.js'
import { ERROR_CODES, ERROR_DOCS, type ErrorCode } from '../../core/errors.js'
import { SLUG, type Schema } from '../../model/schema.js'

/** The interface description version (spec: Versioning). */
export const SERVICE_VERSION = '0.1.0'
export const SERVICE_NAME = 'Deck Studio'
/** The development instance (spec: port 4321); used in examples when no base URL is known. */
const DEFAULT_BASE = 'http://127.0.0.1:4321'

const REF = (kind: 'schemas' | 'parameters' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` })

const httpActions = (): Action[] => ACTIONS.filter((a) => a.transportSet.has('H'))
const cliForm = (action: Action) => (action.cli === null ? null : `studio ${action.cli}`)

// ---------------------------------------------------------------------------------------------
// Schemas: our action schemas are plain draft-07-compatible JSON Schema. OpenAPI 3.1 uses JSON Schema
// 2020-12; the two differ only in a few keywords, which are rewritten here (defensively: the table
// uses none of them today; the unit test holds every schema of the document to the 2020-12 meta-schema).
// ---------------------------------------------------------------------------------------------

const SUBSCHEMA = ['additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems']
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems']
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']

/** A deep copy of a JSON Schema, valid as an OpenAPI 3.1 Schema Object (JSON Schema 2020-12). */
export function toOpenApiSchema(schema: Schema): Schema {
  return rewrite(JSON.parse(JSON.stringify(schema)) as Schema)
}

function rewrite(schema: unknown): Schema {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema as Schema
  const s = schema as Record<string, unknown>
  delete s.$schema // the document's dialect applies; a draft-07 $schema would switch it
  // draft-04 boolean exclusive bounds → 2020-12 numeric ones
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof s[flag] === 'boolean') {
      if (s[flag] && typeof s[bound] === 'number') {
        s[flag] = s[bound]
        delete s[bound]
      } else delete s[flag]
    }
  }
  // draft-07 tuple form → prefixItems (+ items for the rest)
  if (Array.isArray(s.items)) {
    s.prefixItems = s.items
    if (s.additionalItems !== undefined) s.items = s.additionalItems
    else delete s.items
    delete s.additionalItems
  }
  // draft-07 dependencies → dependentRequired / dependentSchemas
  if (s.dependencies && typeof s.dependencies === 'object') {
    for (const [key, value] of Object.entries(s.dependencies as Record<string, unknown>)) {
      const target = Array.isArray(value) ? 'dependentRequired' : 'dependentSchemas'
      s[target] = { ...(s[target] as object | undefined), [key]: value }
    }
    delete s.dependencies
  }
  if (s.definitions && !s.$defs) {
    s.$defs = s.definitions
    delete s.definitions
  }
  for (const key of SUBSCHEMA) if (key in s) rewrite(s[key])
  if (s.items !== undefined) rewrite(s.items)
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach(rewrite)
  for (const key of SUBSCHEMA_MAPS) {
    if (s[key] && typeof s[key] === 'object') for (const value of Object.values(s[key] as object)) rewrite(value)
  }
  return s
}

/**
 * An action's result schema for OpenAPI: the shared definitions it carries as `$defs` (slides,
 * blocks, the deck) are lifted into `components/schemas` once, and its references follow them.
 */
function liftDefs(schema: Schema, into: Record<string, Schema>): Schema {
  const relink = (node: Schema): Schema => JSON.parse(JSON.stringify(node).split('"#/$defs/').join('"#/components/schemas/')) as Schema
  const { $defs, ...rest } = schema
  for (const [name, def] of Object.entries(($defs as Record<string, Schema> | undefined) ?? {})) {
    const lifted = toOpenApiSchema(relink(def))
    if (into[name] && JSON.stringify(into[name]) !== JSON.stringify(lifted)) throw new Error(`Two result definitions named ${name}.`)
    into[name] = lifted
  }
  return toOpenApiSchema(relink(rest))
}

/** The lifted result definitions; their names must not shadow a schema of this document. */
function lifted(results: Record<string, Schema>): Record<string, Schema> {
  for (const name of Object.keys(results)) {
    if (['Error', 'ActionDescription', 'AgentManifest', 'JsonRpcMessage', 'BundleFromUrl', 'BundleResult'].includes(name)) throw new Error(`Result definition ${name} shadows a schema of the OpenAPI document.`)
  }
  return results
}

const requiresBody = (input: Schema) => Array.isArray(input.required) && input.required.length > 0

// ---------------------------------------------------------------------------------------------
// OpenAPI
// ---------------------------------------------------------------------------------------------

const ERROR_FIELDS = ['type', 'title', 'status', 'detail', 'code', 'message', 'path', 'pointer', 'currentRevision', 'currentTag', 'current', 'holder', 'details'] as const

function errorSchema(): Schema {
  const codes = Object.keys(ERROR_CODES) as ErrorCode[]
  return {
    type: 'object',
    description: 'The one error shape of every transport (MCP tool error, CLI --json), sent over HTTP as RFC 9457 problem details (application/problem+json: type, title, status, detail, then the same members). Codes: ' +
      codes.map((code) => `${code} (${ERROR_CODES[code][0]}): ${ERROR_DOCS[code]}`).join(' '),
    required: ['type', 'title', 'status', 'detail', 'code', 'message'],
    properties: {
      type: { type: 'string', description: 'RFC 9457: urn:deck-studio:error:<code>.' },
      title: { type: 'string', description: 'RFC 9457: the short title of the code.' },
      status: { type: 'integer', description: 'The HTTP status.' },
      detail: { type: 'string', description: 'RFC 9457: the message for this occurrence (the same text as message).' },
      code: { type: 'string', enum: codes, description: 'Stable error code; each maps to one HTTP status and one CLI exit code.' },
      message: { type: 'string', description: 'A sentence for people.' },
      path: { type: 'string', description: 'Input errors: the validator path.' },
      pointer: { type: 'string', description: 'Input errors: the JSON pointer of the offending (or unknown) input field.' },
      currentRevision: { type: 'integer', minimum: 0, description: 'stale_revision: the current revision of the deck.' },
      currentTag: { type: 'string', description: 'stale_revision: the version tag of the current content (send it back as baseTag or If-Match).' },
      current: { description: 'stale_revision: the whole current deck document (manifest, slides, versions); no re-read needed.' },
      holder: { description: 'leased: the author holding the slide lease.' },
      details: { description: 'More about the failure where the code has any.' },
    },
  }
}

/** Status → [response name, description]. The codes each status carries come from ERROR_CODES. */
const ERROR_RESPONSES: Record<number, [string, string]> = {
  400: ['BadRequest', 'Malformed input (a type error) carrying the validator path; an unknown input field carries code unknown_field and a JSON pointer.'],
  401: ['Unauthorized', 'A bearer token is required (off localhost) and is missing or invalid.'],
  403: ['Forbidden', 'The caller lacks the capability, or the Host/Origin is not served here.'],
  405: ['MethodNotAllowed', 'The path exists but not for this method; the Allow header lists the methods it answers.'],
  404: ['NotFound', 'Unknown id (deck, slide, block, template, version), or an unknown action or one not offered on HTTP.'],
  409: ['Conflict', 'Stale baseRevision (the body carries currentRevision and the current document; nothing was written), a slide held by another author\'s lease (holder), or an id already taken.'],
  413: ['PayloadTooLarge', 'The body is over its cap (1 MB for action endpoints), or a file handed in is over its cap or its decoding went over its memory budget.'],
  422: ['Unprocessable', 'A file handed in is over a documented processing limit (dimensions, pixel count, SVG element, filter or <use> counts) or its decoding went over its time budget; the message names the limit. Nothing was written.'],
  500: ['InternalError', 'Renderer, codec or storage failure; the deck is unchanged.'],
  501: ['NotImplemented', 'The action is declared in the table but not built on this instance (implemented: false).'],
  502: ['BadGateway', 'A URL the server fetched (a bundle\'s fromUrl) did not deliver; the body never echoes what it answered.'],
  503: ['ServiceUnavailable', 'A kill switch (admin.flag) has turned the capability off (details.flag names it), or the server is shutting down (shutting_down). Nothing was written.'],
}

function errorResponses(): Record<string, unknown> {
  const responses: Record<string, unknown> = {}
  for (const [status, [name, description]] of Object.entries(ERROR_RESPONSES)) {
    const codes = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code][0] === Number(status))
    responses[name] = {
      description: `${description} Codes: ${codes.join(', ')}.`,
      ...(status === '401' ? { headers: { 'WWW-Authenticate': { description: 'Bearer realm="studio"', schema: { type: 'string' } } } } : {}),
      ...(status === '405' ? { headers: { Allow: { description: 'The methods the path answers.', schema: { type: 'string' } } } } : {}),
      content: { 'application/problem+json': { schema: REF('schemas', 'Error') } },
    }
  }
  return responses
}

const errorRefs = (statuses: number[]) => Object.fromEntries(statuses.map((status) => [String(status), REF('responses', ERROR_RESPONSES[status][0])]))

function parameters(): Record<string, unknown> {
  return {
    deck: {
      name: 'deck',
      in: 'query',
      required: false,
      description: 'The deck id under decks/; the instance default deck when absent.',
      schema: { type: 'string', pattern: SLUG },
    },
    author: {
      name: 'author',
      in: 'query',
      required: false,
      description: 'The author of the call (query form of x-studio-author).',
      schema: { type: 'string' },
    },
    authorHeader: {
      name: 'x-studio-author',
      in: 'header',
      required: false,
      description: 'A human name or agent:<runId>; agent:http when absent. Names the author of the commit a write makes.',
      schema: { type: 'string' },
    },
    force: {
      name: 'force',
      in: 'query',
      required: false,
      description: 'Write to a slide another author leased.',
      schema: { type: 'boolean' },
    },
    forceHeader: {
      name: 'x-studio-force',
      in: 'header',
      required: false,
      description: 'Header form of force: 1 writes through another author\'s lease.',
      schema: { type: 'string', enum: ['1'] },
    },
    mcpSession: {
      name: 'mcp-session-id',
      in: 'header',
      required: false,
      description: 'The MCP session, as answered to initialize; absent on initialize itself.',
      schema: { type: 'string' },
    },
    mcpSessionRequired: {
      name: 'mcp-session-id',
      in: 'header',
      required: true,
      description: 'The MCP session, as answered to initialize.',
      schema: { type: 'string' },
    },
  }
}

const GIVEN_DOC = 'The calls, in order, that make what the example needs and a new deck lacks (a deck just made by deck.create {"name": "Quarterly review"}: revision 0, slide title-1 in section main); each names the revision it leaves, which the next one and the example pass as baseRevision.'

function givenStepSchema(): Schema {
  return {
    type: 'object',
    required: ['action', 'input', 'revision'],
    properties: {
      action: { type: 'string', description: 'The action id of the call.' },
      input: { type: 'object', description: 'Its input.' },
      revision: { type: 'integer', description: "The deck's revision after the call." },
    },
  }
}

function actionDescriptionSchema(): Schema {
  return {
    type: 'object',
    description: 'One row of the action table, as GET /api/actions/{id} and `studio actions show` serve it.',
    required: ['id', 'label', 'doc', 'group', 'mutates', 'transports', 'milestone', 'implemented', 'input', 'output', 'cli', 'mcp', 'given', 'example'],
    properties: {
      id: { type: 'string', description: 'Action id <group>.<name>.' },
      label: { type: 'string' },
      doc: { type: 'string' },
      group: { type: 'string' },
      mutates: { type: 'boolean', description: 'true when the action writes (and then takes baseRevision unless its entry says otherwise).' },
      transports: { type: 'array', items: { enum: ['C', 'M', 'H', 'P'] }, description: 'C command line, M MCP tool, H HTTP endpoint, P in-page window.' },
      milestone: { type: 'string', pattern: '^M[0-9]+$' },
      implemented: { type: 'boolean', description: 'false: declared but not built; every call answers 501.' },
      input: { type: 'object', description: 'JSON Schema of the input (the request body).' },
      output: { type: 'object', description: 'JSON Schema of the result.' },
      cli: { type: ['string', 'null'], description: 'The command line form.' },
      mcp: { type: ['string', 'null'], description: 'The MCP tool name.' },
      given: { type: 'array', items: givenStepSchema(), description: GIVEN_DOC },
      example: { type: 'object', description: 'An example input: it works as written after the given steps on a deck just made by deck.create {"name": "Quarterly review"}.' },
    },
  }
}

function actionOperation(action: Action, schemas: Record<string, Schema>): Record<string, unknown> {
  const notes = [`Milestone ${action.milestone}.`]
  if (action.mutates) notes.push('Mutating: pass the baseRevision you last read where the input asks for it; a stale one answers 409 with currentRevision and the current document, and nothing is written.')
  notes.push(action.implemented ? 'Implemented on this instance.' : 'Declared but not built on this instance: every call answers 501 (not_implemented).')
  const parameterRefs = ['deck', 'author', 'authorHeader', ...(action.mutates ? ['force', 'forceHeader'] : [])].map((name) => REF('parameters', name))
  return {
    operationId: action.id,
    summary: action.label,
    description: `${action.doc}\n\n${notes.join(' ')}`,
    tags: [action.group],
    parameters: parameterRefs,
    requestBody: {
      required: requiresBody(action.input),
      description: 'The action input as a JSON object.' + (requiresBody(action.input) ? '' : ' An empty body counts as {}.'),
      content: { 'application/json': { schema: toOpenApiSchema(action.input), example: action.example } },
    },
    responses: {
      '200': { description: 'The normalized result; no re-read needed.', content: { 'application/json': { schema: liftDefs(action.output, schemas) } } },
      // Presence actions stop while the `presence` kill switch is on (503 switched_off).
      ...errorRefs([400, 401, 403, 404, ...(action.mutates ? [409] : []), 413, 422, 500, 501, ...(action.group === 'presence' ? [503] : [])]),
    },
    'x-studio-implemented': action.implemented,
    'x-studio-milestone': action.milestone,
    'x-studio-mutates': action.mutates,
    'x-studio-transports': [...action.transportSet],
    'x-studio-cli': cliForm(action),
    'x-studio-mcp': action.mcp,
    ...(action.given?.length ? { 'x-studio-given': action.given } : {}),
  }
}

function discoveryPaths(): Record<string, unknown> {
  const json = (schema: unknown) => ({ 'application/json': { schema } })
  const jsonRpc = REF('schemas', 'JsonRpcMessage')
  const deckIdParam = (description: string) => ({ name: 'id', in: 'path', required: true, description, schema: { type: 'string', pattern: SLUG } })
  return {
    '/api/agent': {
      get: {
        operationId: 'getAgentManifest',
        summary: 'Agent manifest',
        description: 'Transports, execution rules, every action of the table (with implemented flags), what this instance implements, skills, MCP resources and prompts.',
        tags: ['discovery'],
        responses: { '200': { description: 'The manifest.', content: json(REF('schemas', 'AgentManifest')) }, ...errorRefs([401, 403]) },
      },
    },
    '/api/actions/{id}': {
      get: {
        operationId: 'describeAction',
        summary: 'Describe one action',
        description: 'The table row of an action offered on HTTP: label, doc, group, mutates, transports, milestone, implemented, input and output JSON Schema, cli, mcp, example.',
        tags: ['discovery'],
        parameters: [{ name: 'id', in: 'path', required: true, description: 'An action id from the table, e.g. deck.info.', schema: { type: 'string' } }],
        responses: { '200': { description: 'The action description.', content: json(REF('schemas', 'ActionDescription')) }, ...errorRefs([401, 403, 404]) },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This description',
        tags: ['discovery'],
        responses: { '200': { description: 'The OpenAPI 3.1 description of the service.', content: json({ type: 'object' }) }, ...errorRefs([401, 403]) },
      },
    },
    '/llms.txt': {
      get: {
        operationId: 'getLlmsTxt',
        summary: 'Short machine guide',
        tags: ['discovery'],
        responses: { '200': { description: 'A plain-text guide an agent can act on.', content: { 'text/plain': { schema: { type: 'string' } } } }, ...errorRefs([401, 403]) },
      },
    },
    // Probes for an orchestrator (docs/hosting.md): no credential (security: []), still Host-checked.
    '/healthz': {
      get: {
        operationId: 'getHealth',
        summary: 'Liveness',
        description: 'Answers 200 {"status":"ok"} while the process answers at all. Needs no credential; says nothing about any deck.',
        tags: ['operations'],
        security: [],
        responses: { '200': { description: 'The process answers.', content: json({ type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }) }, ...errorRefs([403]) },
      },
    },
    '/readyz': {
      get: {
        operationId: 'getReadiness',
        summary: 'Readiness',
        description: 'Answers 200 when the workspace can be read and written, git answers, the identity database answers (where accounts are on) and the server is not shutting down; otherwise 503 naming the failing check ("failing: <why>"). Needs no credential.',
        tags: ['operations'],
        security: [],
        responses: {
          '200': { description: 'Ready: every check answers ok.', content: json(REF('schemas', 'Readiness')) },
          '503': { description: 'Not ready: at least one check fails, or the server is shutting down.', content: json(REF('schemas', 'Readiness')) },
          ...errorRefs([403]),
        },
      },
    },
    '/mcp': {
      post: {
        operationId: 'mcpPost',
        summary: 'MCP over streamable HTTP',
        description: 'A JSON-RPC message of the Model Context Protocol; send initialize first. Query deck and x-studio-author (or query author) bind the session at initialize; mcp-session-id carries it afterwards. One tool per implemented MCP action, resources under deck://, the prompt deck_review.',
        tags: ['mcp'],
        parameters: [REF('parameters', 'deck'), REF('parameters', 'author'), REF('parameters', 'authorHeader'), REF('parameters', 'mcpSession')],
        requestBody: { required: true, content: json(jsonRpc) },
        responses: {
          '200': {
            description: 'The JSON-RPC response, as JSON or as an SSE stream. The answer to initialize carries the mcp-session-id header.',
            headers: { 'mcp-session-id': { description: 'The session id (answer to initialize).', schema: { type: 'string' } } },
            content: { 'application/json': { schema: jsonRpc }, 'text/event-stream': { schema: { type: 'string' } } },
          },
          '202': { description: 'A notification or response was accepted; no body.' },
          '400': { description: 'Not a valid MCP request (for example no session id outside initialize): a JSON-RPC error object.', content: json(jsonRpc) },
          '404': { description: 'Unknown or closed session: a JSON-RPC error object; initialize again.', content: json(jsonRpc) },
          ...errorRefs([401, 403, 413]),
        },
      },
      get: {
        operationId: 'mcpStream',
        summary: 'MCP notification stream',
        description: 'Server-to-client notifications of the session.',
        tags: ['mcp'],
        parameters: [REF('parameters', 'mcpSessionRequired')],
        responses: {
          '200': { description: 'A text/event-stream of server-to-client notifications.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          '400': { description: 'No session header: a JSON-RPC error object.', content: json(jsonRpc) },
          '404': { description: 'Unknown or closed session: a JSON-RPC error object.', content: json(jsonRpc) },
          ...errorRefs([401, 403]),
        },
      },
      delete: {
        operationId: 'mcpClose',
        summary: 'Close an MCP session',
        tags: ['mcp'],
        parameters: [REF('parameters', 'mcpSessionRequired')],
        responses: {
          '200': { description: 'The session is closed.' },
          '400': { description: 'No session header: a JSON-RPC error object.', content: json(jsonRpc) },
          '404': { description: 'Unknown or closed session: a JSON-RPC error object.', content: json(jsonRpc) },
          ...errorRefs([401, 403]),
        },
      },
    },
    '/api/uploads': {
      post: {
        operationId: 'presignUpload',
        summary: 'Begin a presigned upload',
        description:
          'A presigned POST to the object store for one file of at most 25 MB under uploads/<principal id>/ (docs/hosting.md, "Uploads"): post the file as a form to url with fields, then name key in asset.add `upload`. 501 where no object store is set (STUDIO_S3_BUCKET); 503 while the uploads kill switch is on.',
        tags: ['bundle'],
        responses: {
          '200': {
            description: 'The presigned POST.',
            content: json({
              type: 'object',
              required: ['url', 'fields', 'key', 'maxBytes', 'expiresAt'],
              properties: { url: { type: 'string' }, fields: { type: 'object', additionalProperties: { type: 'string' } }, key: { type: 'string' }, maxBytes: { type: 'integer' }, expiresAt: { type: 'string', format: 'date-time' } },
            }),
          },
          ...errorRefs([401, 403, 501, 503]),
        },
      },
    },
    '/api/decks/bundle': {
      post: {
        operationId: 'uploadBundle',
        summary: 'Receive a deck bundle',
        description:
          'The target of `studio deck push`. The body is the bundle zip (up to the 4.5 MB function body cap of hosted deployments), or a JSON object naming a bundle stored at a URL the studio fetches (fromUrl) for larger ones. The bundle is validated whole before anything is written, then unpacked like deck.unpack: a taken id gets a free sibling id unless replace. Needs the bearer token whenever the studio has one, even on localhost.',
        tags: ['bundle'],
        parameters: [
          { name: 'as', in: 'query', required: false, description: 'Zip body: the deck id to land under (the bundle id when absent).', schema: { type: 'string', pattern: SLUG } },
          { name: 'replace', in: 'query', required: false, description: 'Zip body: remove the deck holding the id first.', schema: { type: 'boolean' } },
          REF('parameters', 'author'),
          REF('parameters', 'authorHeader'),
        ],
        requestBody: {
          required: true,
          description: 'application/zip: the bundle bytes. application/json: { fromUrl, as?, replace? } or { upload, as?, replace? }.',
          content: {
            'application/zip': {},
            'application/json': { schema: REF('schemas', 'BundleFromUrl') },
          },
        },
        responses: {
          '200': { description: 'The deck the bundle landed in.', content: json(REF('schemas', 'BundleResult')) },
          ...errorRefs([400, 401, 403, 409, 413, 500, 502]),
        },
      },
    },
    '/api/decks/{id}/bundle': {
      get: {
        operationId: 'downloadBundle',
        summary: 'Send a deck bundle',
        description: 'The source of `studio deck pull`: the bundle zip of the deck as it is now (the same deck packs to the same bytes). Needs the bearer token whenever the studio has one, even on localhost.',
        tags: ['bundle'],
        parameters: [deckIdParam('The deck id.')],
        responses: {
          '200': {
            description: 'The bundle zip.',
            headers: { 'x-studio-revision': { description: 'The deck revision packed.', schema: { type: 'integer', minimum: 0 } } },
            content: { 'application/zip': {} },
          },
          ...errorRefs([401, 403, 404, 500]),
        },
      },
    },
  }
}

/** GET /openapi.json: the OpenAPI 3.1.0 description, generated from the action table. */
export function openApiDocument(options: { serverUrl?: string } = {}): object {
  const groups = [...new Set(httpActions().map((a) => a.group))]
  const paths: Record<string, unknown> = discoveryPaths()
  const results: Record<string, Schema> = {}
  for (const action of httpActions()) paths[`/api/actions/${action.id}`] = { post: actionOperation(action, results) }
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE_NAME,
      version: SERVICE_VERSION,
      summary: 'Slide decks that live in git: one action table, a CLI, HTTP and MCP.',
      description:
        'Every operation is an action POST /api/actions/<id> with the input as a JSON object. Mutating actions take baseRevision, the revision the caller last read; a stale one answers 409 with currentRevision and the current document. ' +
        'Unknown input fields answer 400 unknown_field with a JSON pointer; bodies over 1 MB answer 413; an action declared but not built answers 501 (x-studio-implemented: false). ' +
        'On localhost no token is needed; off localhost every endpoint needs Authorization: Bearer <token>.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ bearer: [] }, {}],
    tags: [
      { name: 'discovery', description: 'What this studio offers: the manifest, action descriptions, this document, the machine guide.' },
      { name: 'mcp', description: 'The Model Context Protocol over streamable HTTP.' },
      { name: 'bundle', description: 'Deck bundle transfer (studio deck push / pull).' },
      { name: 'operations', description: 'Probes for an orchestrator: liveness and readiness (docs/hosting.md).' },
      ...groups.map((group) => ({ name: group, description: `Actions of the ${group} group.` })),
    ],
    paths,
    components: {
      schemas: {
        Error: errorSchema(),
        ActionDescription: actionDescriptionSchema(),
        Readiness: {
          type: 'object',
          description: 'See GET /readyz: each check answers "ok" or "failing: <why>" (serving, workspace, git, identity where accounts are on).',
          required: ['status', 'checks'],
          properties: {
            status: { enum: ['ready', 'unready'] },
            checks: { type: 'object', additionalProperties: { type: 'string', pattern: '^(ok|failing: .+)$' } },
          },
        },
        AgentManifest: {
          type: 'object',
          description: 'See GET /api/agent.',
          properties: Object.fromEntries(
            ['name', 'version', 'baseUrl', 'transports', 'executionRules', 'examples', 'errors', 'actions', 'implemented', 'skills', 'resources', 'prompts', 'defaultDeck'].map((key) => [key, {}]),
          ),
        },
        JsonRpcMessage: {
          type: 'object',
          description: 'A JSON-RPC 2.0 message (request, notification, response or error).',
          required: ['jsonrpc'],
          properties: {
            jsonrpc: { const: '2.0' },
            id: { type: ['string', 'integer', 'null'] },
            method: { type: 'string' },
            params: { type: 'object' },
            result: {},
            error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
          },
        },
        BundleFromUrl: {
          type: 'object',
          additionalProperties: false,
          oneOf: [{ required: ['fromUrl'] }, { required: ['upload'] }],
          properties: {
            fromUrl: { type: 'string', pattern: '^https?://', description: 'A bundle already stored at a URL the studio may read; it is fetched instead of sent.' },
            upload: { type: 'string', description: 'The key of a presigned upload of the caller\'s (POST /api/uploads, at most 25 MB); deleted once the deck has landed.' },
            as: { type: 'string', pattern: SLUG, description: 'The deck id to land under; the bundle id when absent.' },
            replace: { type: 'boolean', description: 'Remove the deck holding the id first; without it a taken id gets a free sibling id.' },
          },
        },
        BundleResult: liftDefs(deckUnpack.output, results),
        ...lifted(results),
      },
      parameters: parameters(),
      responses: errorResponses(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'STUDIO_TOKEN or an API key. Not needed on localhost; required off localhost and for the bundle endpoints when a token is configured.' },
      },
    },
  }
}

// ---------------------------------------------------------------------------------------------
// GET /api/agent
// ---------------------------------------------------------------------------------------------

const EXECUTION_RULES = [
  'Call an action: POST /api/actions/<id> with its input as a JSON object; 200 answers the normalized result, so no re-read is needed.',
  'Every mutation takes baseRevision: the revision you last read (deck.info answers it; every write answers the new one).',
  'A stale baseRevision answers 409 stale_revision with currentRevision and current (the whole document); nothing was written. Rebase on current (or re-read) and retry with currentRevision.',
  'Every read and write answers tag (also the ETag header): the version tag of that exact content. Send it back as baseTag (or If-Match: "<tag>") and the write is refused (409) unless the deck is still what you read; a revision number alone may name another git branch\'s content.',
  'Unknown input fields answer 400 unknown_field with a JSON pointer; type errors answer 400 invalid_input with the validator path.',
  'Bodies over 1 MB answer 413.',
  'Header x-studio-author (or query author) names the author of the commit: a person, or agent:<runId> for agents; agent:http when absent.',
  'Query ?deck=<id> picks the deck; the instance default deck when absent.',
  'A slide leased by another author answers 409 leased naming the holder; force=true (or header x-studio-force: 1) writes through the lease.',
  'One error shape everywhere: { status, code, message, path?, pointer?, currentRevision?, currentTag?, current?, holder?, details? }.',
  'An action declared but not built answers 501 not_implemented; implemented: false shows it before you call.',
  'Off localhost every endpoint needs Authorization: Bearer <token> (401 otherwise).',
]

interface Skill {
  name: string
  summary: string
  steps: string[]
  uses: string[]
}

const SKILLS: Skill[] = [
  {
    name: 'read-then-write',
    summary: 'Change a deck without clobbering anyone: read the revision, write with it, retry on 409.',
    steps: [
      'POST /api/actions/deck.info {} → note revision',
      'POST /api/actions/deck.rename {"name": "New title", "baseRevision": <revision>} → the result carries the new revision',
      'On 409 stale_revision: take currentRevision (and current) from the error body and retry',
    ],
    uses: ['deck.info', 'deck.rename'],
  },
  {
    name: 'new-deck',
    summary: 'Start a deck from a template, then work on it with ?deck=<id>.',
    steps: ['POST /api/actions/template.list {} → pick a template id', 'POST /api/actions/deck.create {"name": "Quarterly review", "from": "<templateId>"} → the new deck id', 'Pass ?deck=<id> on later calls'],
    uses: ['template.list', 'deck.create'],
  },
  {
    name: 'find-a-deck',
    summary: 'List the decks of this studio and pick one.',
    steps: ['POST /api/actions/deck.list {} → ids, titles, revisions', 'Pass ?deck=<id> on later calls'],
    uses: ['deck.list'],
  },
  {
    name: 'check-a-deck',
    summary: 'Validate a deck and read its issues.',
    steps: ['POST /api/actions/validate.run {} → issues and the normalized document'],
    uses: ['validate.run'],
  },
  {
    name: 'bundle-transfer',
    summary: 'Move a deck between a checkout and a studio as a bundle zip.',
    steps: [
      'studio deck push <id> --to <studio> --token <token>  (POST /api/decks/bundle, zip body; JSON {"fromUrl"} beyond 4.5 MB)',
      'studio deck pull <id> --from <studio> --token <token>  (GET /api/decks/<id>/bundle)',
      'studio deck pack <id> / studio deck unpack <file> for files on disk',
    ],
    uses: ['deck.push', 'deck.pull', 'deck.pack', 'deck.unpack'],
  },
]

/** GET /api/agent: the manifest an agent reads first. */
export function agentManifest(options: { baseUrl?: string; defaultDeck?: string } = {}): object {
  const implemented = ACTIONS.filter((a) => a.implemented)
  const isImplemented = (id: string) => ACTIONS.some((a) => a.id === id && a.implemented)
  return {
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    baseUrl: options.baseUrl ?? null,
    transports: {
      cli: 'studio <command>',
      http: {
        actions: 'POST /api/actions/<id>',
        describe: 'GET /api/actions/{id}',
        agent: 'GET /api/agent',
        openapi: 'GET /openapi.json',
        llms: 'GET /llms.txt',
        bundleUpload: 'POST /api/decks/bundle',
        bundleDownload: 'GET /api/decks/{id}/bundle',
      },
      mcp: { streamableHttp: '/mcp', stdio: 'studio mcp --deck <id>' },
    },
    executionRules: EXECUTION_RULES,
    examples: "Each action's example works as written on a deck just made by deck.create {\"name\": \"Quarterly review\"} (quarterly-review at revision 0, slide title-1 in section main) once its given steps ran, in order; each step names the revision it leaves.",
    errors: {
      fields: ERROR_FIELDS,
      codes: Object.fromEntries((Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => [code, { status: ERROR_CODES[code][0], exitCode: ERROR_CODES[code][1], doc: ERROR_DOCS[code] }])),
    },
    actions: ACTIONS.map((action) => ({
      id: action.id,
      label: action.label,
      group: action.group,
      mutates: action.mutates,
      transports: [...action.transportSet],
      milestone: action.milestone,
      implemented: action.implemented,
      mcp: action.mcp,
      cli: cliForm(action),
      http: action.transportSet.has('H') ? `POST /api/actions/${action.id}` : null,
      given: action.given ?? [],
      example: action.example,
    })),
    implemented: { count: implemented.length, ids: implemented.map((a) => a.id) },
    skills: SKILLS.map((skill) => ({ ...skill, uses: skill.uses.map((id) => ({ id, implemented: isImplemented(id) })) })),
    resources: ['deck://<id>', 'deck://<id>/slides/<slideId>'],
    prompts: ['deck_review'],
    defaultDeck: options.defaultDeck ?? null,
  }
}

// ---------------------------------------------------------------------------------------------
// GET /llms.txt
// ---------------------------------------------------------------------------------------------

/** Above this many implemented actions the list folds to one line per group, keeping the guide short. */
const LIST_ONE_PER_LINE = 40

/** GET /llms.txt: a short plain-text guide an agent can act on. */
/** The documents `studio serve` serves under /docs/ (from the package's docs folder). */
export const SERVED_DOCS = ['errors', 'security', 'model', 'storage', 'layouts', 'review', 'getting-started', 'actions']

/**
 * /llms.txt: a one-page guide. Its examples name the deck this server serves and its current
 * revision, so they work when pasted (a rename at that revision answers 200); each section links to
 * the document it summarizes.
 */
export function llmsTxt(options: { baseUrl?: string; deck?: string; revision?: number } = {}): string {
  const base = (options.baseUrl ?? DEFAULT_BASE).replace(/\/+$/, '')
  const deck = options.deck ?? 'welcome'
  const revision = options.revision ?? 0
  const implemented = ACTIONS.filter((a) => a.implemented)
  const tag = (a: Action) => (a.transportSet.has('H') ? '' : ` [${[...a.transportSet].join('')} only: not on HTTP]`)
  let list: string[]
  if (implemented.length <= LIST_ONE_PER_LINE) list = implemented.map((a) => `- ${a.id} — ${a.label}${tag(a)}`)
  else {
    const groups = new Map<string, string[]>()
    for (const a of implemented) groups.set(a.group, [...(groups.get(a.group) ?? []), `${a.id}${a.transportSet.has('H') ? '' : '*'}`])
    list = [...groups].map(([group, ids]) => `- ${group}: ${ids.join(', ')}`)
    list.push(`  (* not on HTTP; [one action](${base}/api/actions/deck.info) or [the manifest](${base}/api/agent) for labels)`)
  }
  const lines = [
    `# ${SERVICE_NAME}`,
    '',
    '> Slide decks that live in git. Every operation is one action <group>.<name> from one table,',
    '> served alike on the command line (studio), over HTTP and over MCP. Every write is one git commit.',
    '',
    `Base URL: ${base} · this server's deck: ${deck} (revision ${revision} when this page was served)`,
    '',
    '## Discover',
    `- [Agent manifest](${base}/api/agent): transports, rules, every action with its implemented flag, skills`,
    `- [OpenAPI 3.1](${base}/openapi.json): input and output schemas of every HTTP action`,
    `- [One action](${base}/api/actions/deck.info): doc, input JSON Schema, example, implemented (GET /api/actions/{id})`,
    `- [The document model](${base}/docs/model.md): decks, slides, blocks, layouts, Text markup`,
    '',
    '## Call',
    `- POST /api/actions/<id> with the input as a JSON object ({} when it takes none); 200 = the result ([action reference](${base}/docs/actions.md)).`,
    '- ?deck=<id> picks the deck (the default deck when absent).',
    '- Header x-studio-author: agent:<runId> names you in the commit (agent:http when absent).',
    `- Off localhost send Authorization: Bearer <token>, else 401 ([security](${base}/docs/security.md)).`,
    '',
    `## The revision rule ([storage](${base}/docs/storage.md))`,
    'Every mutating action takes baseRevision, the revision you last read. A stale one answers 409',
    'stale_revision with currentRevision and current (the whole document); nothing was written.',
    'Take currentRevision from the error, redo your change against current, and retry.',
    '',
    `  curl -s -X POST '${base}/api/actions/deck.info?deck=${deck}' -H 'content-type: application/json' -d '{}'`,
    `  # → { "id": "${deck}", "title": "...", "revision": ${revision}, ... }`,
    `  curl -s -X POST '${base}/api/actions/deck.rename?deck=${deck}' -H 'content-type: application/json' -H 'x-studio-author: agent:run-42' -d '{"name": "Renamed by an agent", "baseRevision": ${revision}}'`,
    `  # → 200 with the result and revision ${revision + 1}; run it again: 409 { "code": "stale_revision", "currentRevision": ${revision + 1}, "current": {...} }`,
    '',
    `## Errors ([every code](${base}/docs/errors.md))`,
    'HTTP errors are RFC 9457 problem details (application/problem+json):',
    '{ type, title, status, detail, code, message, path?, pointer?, currentRevision?, currentTag?, current?, holder?, details? }.',
    '400 invalid_input / unknown_field (pointer names the field), 401 unauthorized, 403 forbidden,',
    '404 not_found, 405 (Allow lists the methods), 409 stale_revision / leased (holder; retry with ?force=true) / id_taken,',
    '413 body over 1 MB, 500 internal, 501 not_implemented (declared, not built here).',
    '',
    `## MCP ([endpoint](${base}/mcp))`,
    `- Streamable HTTP: ${base}/mcp (initialize first; ?deck=, x-studio-author and ?force=1 bind the session).`,
    '- Stdio: studio mcp --deck <id> (the deck may not exist yet: deck_create with that id makes it; without --deck,',
    '  the session works in the default deck until deck_create, then in the deck it created).',
    '- One tool per implemented action (deck_<verb> names); resources deck://<id>, deck://<id>/slides/<slideId>;',
    '  prompt deck_review. Every failed tool call, invalid arguments included, is a result with isError: true and the',
    '  error object above as structuredContent (unknown_field with its pointer, 409 with the current document);',
    '  only an unknown tool or a malformed request is a JSON-RPC error (-32602).',
    '',
    `## Implemented on this instance (${implemented.length} of ${ACTIONS.length} declared)`,
    ...list,
    '',
  ]
  return lines.join('\n')
}
