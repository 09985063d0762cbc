/**
 * Input validation with ajv, one compiled validator per schema, compiled only when first used.
 *
 * The built CLI ships validators precompiled by `scripts/build.mjs` (ajv standalone), so a command
 * never loads ajv itself; running from source compiles with the same options at first use.
 * The first error decides the answer: an unknown member is `unknown_field` with its JSON pointer,
 * anything else `invalid_input` with the validator path and the pointer of the offending value.
 */
import type { ErrorObject, ValidateFunction } from 'ajv'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { fail, StudioError } from './errors.js'

export const AJV_OPTIONS = { allErrors: false, strict: false, coerceTypes: false, useDefaults: false, validateFormats: true, discriminator: true } as const

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }

const cache = new Map<string, Validator>()
let ajvInstance: Promise<{ compile: (schema: object) => ValidateFunction }> | undefined

async function runtimeAjv() {
  ajvInstance ??= (async () => {
    const { default: Ajv } = await import('ajv')
    const { default: addFormats } = await import('ajv-formats')
    const ajv = new (Ajv as unknown as typeof import('ajv').default)(AJV_OPTIONS)
    ;(addFormats as unknown as (a: unknown) => void)(ajv)
    return ajv
  })()
  return ajvInstance
}

/** Folder of precompiled validators (dist/validators): beside the bundle, or one up from a chunk of it. */
const HERE = dirname(fileURLToPath(import.meta.url))
const PRECOMPILED = [join(HERE, 'validators'), join(HERE, '..', 'validators')].find((dir) => existsSync(dir)) ?? join(HERE, 'validators')

/** File name of a precompiled validator for a key (an action id or a model schema name). */
export function validatorFile(key: string): string {
  return `${key.replace(/[^A-Za-z0-9_.-]/g, '_')}.js`
}

/** The validator of `schema`, cached under `key`. */
export async function validatorFor(key: string, schema: object): Promise<Validator> {
  const hit = cache.get(key)
  if (hit) return hit
  let validator: Validator
  const file = join(PRECOMPILED, validatorFile(key))
  if (existsSync(file)) {
    validator = (await import(pathToFileURL(file).href)).default as Validator
  } else {
    validator = (await runtimeAjv()).compile(schema) as Validator
  }
  cache.set(key, validator)
  return validator
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** Validates `data`; throws the one error shape on the first failure. */
export async function validateInput(key: string, schema: object, data: unknown): Promise<void> {
  const validate = await validatorFor(key, schema)
  if (validate(data)) return
  const error = validate.errors?.[0]
  if (!error) fail('invalid_input', 'Input is invalid.')
  throw inputError(error)
}

export function inputError(error: ErrorObject): StudioError {
  if (error.keyword === 'additionalProperties') {
    const field = String((error.params as { additionalProperty: string }).additionalProperty)
    const pointer = `${error.instancePath}/${escapePointer(field)}`
    return new StudioError('unknown_field', `Unknown field "${field}" at ${pointer}.`, { pointer, path: error.schemaPath })
  }
  const where = error.instancePath || '(input)'
  let message = `${where} ${error.message ?? 'is invalid'}`
  if (error.keyword === 'enum') message += `: ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty
    message = `${where} is missing the required field "${missing}".`
    return new StudioError('invalid_input', message, { pointer: `${error.instancePath}/${escapePointer(missing)}`, path: error.schemaPath })
  }
  return new StudioError('invalid_input', message, { pointer: error.instancePath, path: error.schemaPath })
}
