// Loaded with `node --import`: records every module URL the process resolves into $STUDIO_TRACE_FILE.
import { register } from 'node:module'
import { appendFileSync } from 'node:fs'
const { port1, port2 } = new MessageChannel()
port1.on('message', (url) => appendFileSync(process.env.STUDIO_TRACE_FILE, url + '\n'))
port1.unref()
register('data:text/javascript,' + encodeURIComponent(`
  let port
  export function initialize(data) { port = data.port }
  export async function resolve(specifier, context, next) {
    const result = await next(specifier, context)
    port.postMessage(result.url)
    return result
  }`), import.meta.url, { data: { port: port2 }, transferList: [port2] })
