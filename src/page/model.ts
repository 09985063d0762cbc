/** The model data the server hands the page (block schemas, layouts and their slot boxes), read once. */
import { useEffect, useState } from 'preact/hooks'
import { get } from './api.js'
import type { Box } from './store.js'

export interface JsonSchema {
  type?: string
  enum?: unknown[]
  const?: unknown
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  description?: string
  minimum?: number
  maximum?: number
  exclusiveMaximum?: number
  exclusiveMinimum?: number
  pattern?: string
  maxLength?: number
}

export interface ModelData {
  sheet: { width: number; height: number }
  blockSchemas: Record<string, JsonSchema>
  layouts: { id: string; slots: Record<string, Box>; fieldSlots: Record<string, string> }[]
  slots: string[]
  listPresets: string[]
  masks: string[]
}

let cached: Promise<ModelData> | undefined
/** The model once it is here, so a view mounted later has it from its first drawing. */
let loaded: ModelData | null = null
export function loadModel(): Promise<ModelData> {
  cached ??= get<ModelData>('/page/model.json').then((model) => (loaded = model))
  return cached
}

export function useModel(): ModelData | null {
  const [model, setModel] = useState<ModelData | null>(loaded)
  useEffect(() => {
    void loadModel().then(setModel)
  }, [])
  return model
}
