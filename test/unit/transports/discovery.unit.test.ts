import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { ACTIONS, findAction } from '../../../src/actions/index.js'
import { ERROR_CODES } from '../../../src/core/errors.js'
import { agentManifest, llmsTxt, openApiDocument, toOpenApiSchema } from '../../../src/transports/http/discovery.js'

type Operation = {
  operationId: string
  requestBody?: { content: Record<string, { schema?: unknown }> }
  responses: Record<string, unknown>
  parameters?: { $ref?: string }[]
  'x-studio-implemented'?: boolean
  'x-studio-milestone'?: string
}
type Doc = {
  openapi: string
  info: { title: string; version: string }
  servers?: { url: string }[]
  security: unknown
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }>; securitySchemes: unknown }
}

const doc = openApiDocument({ serverUrl: 'http://127.0.0.1:4321' }) as Doc
const H = ACTIONS.filter((a) => a.transportSet.has('H'))
const operations = Object.values(doc.paths).flatMap((item) => Object.values(item))

/** Every Schema Object of the document (not descending into schemas themselves). */
function schemasOf(node: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) node.forEach((n) => schemasOf(n, out))
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema') out.push(value)
      else if (key === 'schemas' && value && typeof value === 'object') out.push(...Object.values(value))
      else schemasOf(value, out)
    }
  }
  return out
}

describe('openApiDocument', () => {
  it('passes an independent OpenAPI 3.1 validator (the official schema) with no errors', async () => {
    const validator = new Validator()
    const result = await validator.validate(doc as unknown as Record<string, unknown>)
    assert.deepEqual(result.errors ?? [], [])
    assert.equal(result.valid, true)
    assert.equal(validator.version, '3.1')
  })

  it('is checked for real: the validator refuses a broken copy', async () => {
    const broken = structuredClone(doc) as any
    delete broken.paths['/api/actions/deck.info'].post.responses['200'].description
    broken.paths['/api/actions/deck.rename'].post.parameters.push({ name: 'x', in: 'body' })
    const result = await new Validator().validate(broken)
    assert.equal(result.valid, false)
    const danglingRef = structuredClone(doc) as any
    danglingRef.paths['/api/actions/deck.info'].post.responses['400'] = { $ref: '#/components/responses/Nope' }
    assert.equal((await new Validator().validate(danglingRef)).valid, false)
  })

  it('holds every Schema Object to the JSON Schema 2020-12 meta-schema, with no $schema inside', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false })
    const schemas = schemasOf(doc)
    assert.ok(schemas.length > H.length)
    const problems: string[] = []
    for (const schema of schemas) {
      if (!ajv.validateSchema(schema as object)) problems.push(ajv.errorsText(ajv.errors))
    }
    assert.deepEqual(problems, [])
    assert.ok(!JSON.stringify(doc).includes('"$schema"'))
  })

  it('carries the header, servers and security the spec asks for', () => {
    assert.equal(doc.openapi, '3.1.0')
    assert.deepEqual(doc.info.title, 'Deck Studio')
    assert.deepEqual(doc.info.version, '0.1.0')
    assert.deepEqual(doc.servers, [{ url: 'http://127.0.0.1:4321' }])
    assert.equal((openApiDocument() as Doc).servers, undefined)
    assert.deepEqual(doc.security, [{ bearer: [] }, {}])
    const { bearer } = doc.components.securitySchemes as { bearer: { type: string; scheme: string } }
    assert.deepEqual([bearer.type, bearer.scheme], ['http', 'bearer'])
    assert.deepEqual(doc.components.schemas.Error.properties.code.enum, Object.keys(ERROR_CODES))
  })

  it('has a POST path for every H action and none for the others', () => {
    for (const action of ACTIONS) {
      const item = doc.paths[`/api/actions/${action.id}`]
      if (action.transportSet.has('H')) {
        assert.ok(item?.post, `${action.id} has a POST path`)
        assert.equal(item.post['x-studio-implemented'], action.implemented)
        assert.equal(item.post['x-studio-milestone'], action.milestone)
        assert.ok(item.post.responses['501'])
      } else assert.equal(item, undefined, `${action.id} is not on HTTP`)
    }
    assert.ok(findAction('deck.pack') && !findAction('deck.pack')!.transportSet.has('H'))
    assert.equal(doc.paths['/api/actions/deck.pack'], undefined)
    const actionPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/actions/') && p !== '/api/actions/{id}')
    assert.equal(actionPaths.length, H.length)
  })

  it('uses the action input as the request schema', () => {
    for (const id of ['deck.rename', 'deck.create', 'slide.update']) {
      const schema = doc.paths[`/api/actions/${id}`].post.requestBody!.content['application/json'].schema
      assert.deepEqual(schema, findAction(id)!.input)
    }
  })

  it('has unique operationIds', () => {
    const ids = operations.map((op) => op.operationId)
    assert.equal(new Set(ids).size, ids.length)
    assert.equal(doc.paths['/api/actions/deck.create'].post.operationId, 'deck.create')
  })

  it('documents 409, force and x-studio-force only on mutating actions; deck and author on all', () => {
    for (const action of H) {
      const op = doc.paths[`/api/actions/${action.id}`].post
      const params = (op.parameters ?? []).map((p) => p.$ref)
      assert.equal('409' in op.responses, action.mutates, `${action.id} 409`)
      assert.equal(params.includes('#/components/parameters/force'), action.mutates)
      assert.equal(params.includes('#/components/parameters/forceHeader'), action.mutates)
      for (const name of ['deck', 'author', 'authorHeader']) assert.ok(params.includes(`#/components/parameters/${name}`))
      for (const status of ['200', '400', '401', '403', '404', '413', '500', '501']) assert.ok(op.responses[status], `${action.id} ${status}`)
    }
  })

  it('documents the discovery, MCP and bundle endpoints', () => {
    const expected: [string, string][] = [
      ['/api/agent', 'get'], ['/api/actions/{id}', 'get'], ['/openapi.json', 'get'], ['/llms.txt', 'get'],
      ['/mcp', 'post'], ['/mcp', 'get'], ['/mcp', 'delete'], ['/api/decks/bundle', 'post'], ['/api/decks/{id}/bundle', 'get'],
    ]
    for (const [path, method] of expected) assert.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`)
    const upload = doc.paths['/api/decks/bundle'].post
    assert.deepEqual(Object.keys(upload.requestBody!.content).sort(), ['application/json', 'application/zip'])
    assert.ok(upload.responses['413'])
    assert.ok((doc.paths['/api/decks/{id}/bundle'].get.responses['200'] as any).content['application/zip'])
  })
})

describe('toOpenApiSchema', () => {
  it('strips $schema and rewrites draft-07 forms, keeping const, anyOf and enum', () => {
    const input = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        a: { anyOf: [{ const: 'all' }, { type: 'array', items: [{ type: 'string' }], additionalItems: false }] },
        b: { type: 'number', minimum: 0, exclusiveMinimum: true },
        c: { enum: ['x', 'y'] },
      },
    }
    assert.deepEqual(toOpenApiSchema(input), {
      type: 'object',
      properties: {
        a: { anyOf: [{ const: 'all' }, { type: 'array', prefixItems: [{ type: 'string' }], items: false }] },
        b: { type: 'number', exclusiveMinimum: 0 },
        c: { enum: ['x', 'y'] },
      },
    })
    assert.equal(input.$schema, 'http://json-schema.org/draft-07/schema#', 'the table is not touched')
  })
})

describe('agentManifest', () => {
  const manifest = agentManifest({ baseUrl: 'http://127.0.0.1:4321', defaultDeck: 'welcome' }) as any

  it('lists every action with its flags and the implemented count', () => {
    assert.deepEqual(manifest.actions.map((a: { id: string }) => a.id), ACTIONS.map((a) => a.id))
    assert.equal(manifest.implemented.count, ACTIONS.filter((a) => a.implemented).length)
    assert.deepEqual(manifest.implemented.ids, ACTIONS.filter((a) => a.implemented).map((a) => a.id))
    const pack = manifest.actions.find((a: { id: string }) => a.id === 'deck.pack')
    assert.equal(pack.http, null)
    const info = manifest.actions.find((a: { id: string }) => a.id === 'deck.info')
    assert.equal(info.http, 'POST /api/actions/deck.info')
    assert.equal(info.cli, 'studio info')
    assert.equal(info.mcp, 'deck_get_info')
  })

  it('gives each action its example and the steps that make what the example needs on a new deck, as OpenAPI does', () => {
    const align = manifest.actions.find((a: { id: string }) => a.id === 'block.align')
    const action = ACTIONS.find((a) => a.id === 'block.align')!
    assert.deepEqual([align.given, align.example], [action.given, action.example])
    assert.deepEqual(align.given.map((step: { action: string; revision: number }) => [step.action, step.revision]), [['logo.insert', 1], ['slide.insert', 2]])
    assert.match(manifest.examples, /deck\.create \{"name": "Quarterly review"\}.*given steps/)
    const operations = (openApiDocument() as any).paths
    assert.deepEqual(operations['/api/actions/block.align'].post['x-studio-given'], action.given)
    assert.equal(operations['/api/actions/deck.rename'].post['x-studio-given'], undefined)
  })

  it('names transports, rules, skills, resources, prompts and the default deck', () => {
    assert.equal(manifest.version, '0.1.0')
    assert.equal(manifest.transports.http.actions, 'POST /api/actions/<id>')
    assert.deepEqual(manifest.transports.mcp, { streamableHttp: '/mcp', stdio: 'studio mcp --deck <id>' })
    const rules = manifest.executionRules.join('\n')
    for (const word of ['baseRevision', '409', 'unknown_field', '413', 'x-studio-author', 'agent:<runId>', '?deck=', 'x-studio-force', '501']) {
      assert.ok(rules.includes(word), word)
    }
    const skills = manifest.skills.map((s: { name: string }) => s.name)
    for (const name of ['read-then-write', 'new-deck', 'bundle-transfer']) assert.ok(skills.includes(name), name)
    for (const skill of manifest.skills) for (const use of skill.uses) assert.ok(findAction(use.id), use.id)
    assert.deepEqual(manifest.resources, ['deck://<id>', 'deck://<id>/slides/<slideId>'])
    assert.deepEqual(manifest.prompts, ['deck_review'])
    assert.equal(manifest.defaultDeck, 'welcome')
  })
})

describe('llmsTxt', () => {
  const text = llmsTxt({ baseUrl: 'http://127.0.0.1:4321', deck: 'board-update', revision: 12 })

  it('says how to call, the revision rule and each implemented action, with the served deck and its revision', () => {
    for (const word of ['POST /api/actions/', "'http://127.0.0.1:4321/api/actions/deck.info?deck=board-update'", '"baseRevision": 12', '409', '(http://127.0.0.1:4321/api/agent)', 'Base URL: http://127.0.0.1:4321', '/openapi.json', 'x-studio-author', '/mcp', 'studio mcp', 'problem+json']) {
      assert.ok(text.includes(word), word)
    }
    for (const action of ACTIONS.filter((a) => a.implemented)) assert.ok(text.includes(action.id), action.id)
  })

  it('stays short', () => {
    assert.ok(text.split('\n').length <= 80, `${text.split('\n').length} lines`)
  })
})
