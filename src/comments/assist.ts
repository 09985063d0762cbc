/**
 * Assistant proposals (assist.propose, assist.apply; docs/comments.md "Proposals").
 *
 * A proposal is asked of a language model: through MCP sampling when an MCP client that offers it is
 * connected to this studio (the transport hands it over as `ctx.assistant()`), else through an
 * OpenAI-compatible endpoint the operator configured (`STUDIO_ASSIST_URL`, e.g. a local llama.cpp or
 * Ollama server; `STUDIO_ASSIST_MODEL` names the model); with neither it answers 503 naming both.
 * The model answers slide.update mutations; they are tried on a copy of the deck before anything is
 * stored, and the proposal is stored as a comment thread on the first slide, reviewable like any
 * thread. assist.apply applies it as one write under its baseRevision and resolves the thread.
 *
 * The model's answer is untrusted input: parsed as JSON, each slide checked against the slides asked
 * about, each mutation run by the model's own rules on a copy (src/actions/slide/update.ts applyAll).
 */
import { request } from 'undici'
import type { ActionContext, Assistant } from '../core/action.js'
import { fail, StudioError } from '../core/errors.js'
import { cloneDoc, type DeckDoc } from '../model/deck.js'
import { own } from '../model/own.js'
import { plainText, slideTexts } from '../model/text.js'
import { checkUrl, guardedDispatcher } from '../net/guarded-fetch.js'
import type { Proposal } from './store.js'

export interface ProposeInput {
  slideIds: string[]
  kind: 'shorten' | 'notes' | 'ask'
  ask?: string
}

const ANSWER_LIMIT = 256 * 1024
const TIMEOUT_MS = 120_000

export const SYSTEM_PROMPT = [
  'You edit the slides of a presentation deck. Answer with one JSON object and nothing else:',
  '{"summary": "<one sentence: what you propose>", "slides": [{"slideId": "<id>", "mutations": [<mutation>, ...]}]}',
  'Mutations you may use:',
  '- {"kind": "text.replace", "pointer": "<a Text pointer listed below>", "text": "<the new text; \\n separates paragraphs>"}',
  '- {"kind": "notes.set", "notes": "<the speaker notes>"}',
  'Only name the slides and pointers listed. Keep the meaning; plain text, no markup.',
].join('\n')

const ASKS: Record<ProposeInput['kind'], string> = {
  shorten: 'Shorten the text of these slides: fewer words, the same points, each text at most half as long where it can be.',
  notes: 'Write speaker notes for these slides: what to say, in two to four sentences per slide.',
  ask: '',
}

/** The user message: the ask, then each slide's Texts by pointer, and its notes. */
export function promptOf(doc: DeckDoc, input: ProposeInput): string {
  const lines = [input.kind === 'ask' ? input.ask!.trim() : ASKS[input.kind], '']
  for (const id of input.slideIds) {
    const slide = own(doc.slides, id)!
    lines.push(`Slide ${id} (layout ${slide.layout}):`)
    for (const site of slideTexts(slide)) {
      let text: string
      try {
        text = plainText(site.value)
      } catch {
        text = site.value
      }
      if (text.trim()) lines.push(`  ${site.pointer}: ${JSON.stringify(text)}`)
    }
    if (slide.notes?.trim()) lines.push(`  notes: ${JSON.stringify(slide.notes)}`)
    lines.push('')
  }
  return lines.join('\n')
}

/** The assistant this call reaches, and its name; 503 naming both ways when there is none. */
export function assistantFor(ctx: ActionContext, env: NodeJS.ProcessEnv = process.env): { ask: Assistant; by: string } {
  const sampling = ctx.assistant()
  if (sampling) return { ask: sampling, by: 'mcp-sampling' }
  const url = env.STUDIO_ASSIST_URL?.trim()
  if (url) return { ask: (r) => chatCompletion(url, env.STUDIO_ASSIST_MODEL?.trim() || 'default', r), by: `${new URL(url).host} ${env.STUDIO_ASSIST_MODEL?.trim() || 'default'}` }
  fail(
    'switched_off',
    'No assistant is reachable: connect an MCP client that offers sampling to this studio (studio serve at /mcp), or set STUDIO_ASSIST_URL to an OpenAI-compatible endpoint (a local llama.cpp or Ollama server, e.g. http://127.0.0.1:8080) and STUDIO_ASSIST_MODEL to its model.',
  )
}

/**
 * One chat completion at `<base>/v1/chat/completions` through the guarded dispatcher. The operator named
 * this endpoint, so its own address is let through (a local model on loopback), and nothing else: no
 * redirect is followed.
 */
async function chatCompletion(base: string, model: string, r: { system: string; user: string; maxTokens: number }): Promise<{ text: string; model?: string }> {
  const url = new URL(`${base.replace(/\/+$/, '')}/v1/chat/completions`)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const literal = /^[\d.]+$|:/.test(host)
  const policy = literal ? { allow: [host] } : host === 'localhost' ? { allow: ['127.0.0.1', '::1'] } : {}
  checkUrl(url, policy)
  const dispatcher = guardedDispatcher(policy)
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json', 'user-agent': 'deck-studio', ...(process.env.STUDIO_ASSIST_KEY ? { authorization: `Bearer ${process.env.STUDIO_ASSIST_KEY}` } : {}) },
      body: JSON.stringify({ model, max_tokens: r.maxTokens, messages: [{ role: 'system', content: r.system }, { role: 'user', content: r.user }] }),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    })
    // Counted as it arrives: past the cap the transfer stops, nothing more is held.
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length
      if (size > ANSWER_LIMIT) {
        response.body.destroy()
        fail('payload_too_large', `The assistant at "${url.host}" answered more than ${ANSWER_LIMIT} bytes.`)
      }
      chunks.push(chunk as Buffer)
    }
    const raw = Buffer.concat(chunks)
    if (response.statusCode < 200 || response.statusCode >= 300) fail('fetch_failed', `The assistant at "${url.host}" answered HTTP ${response.statusCode}.`, { details: { status: response.statusCode } })
    const json = JSON.parse(raw.toString('utf8')) as { choices?: { message?: { content?: unknown } }[]; model?: unknown }
    const text = json.choices?.[0]?.message?.content
    if (typeof text !== 'string') fail('fetch_failed', `The assistant at "${url.host}" answered no message (choices[0].message.content).`)
    return { text, ...(typeof json.model === 'string' ? { model: json.model } : {}) }
  } catch (error) {
    if (error instanceof StudioError) throw error
    fail('fetch_failed', `The assistant at "${url.host}" could not be reached: ${(error as Error).message}`)
  } finally {
    void dispatcher.close()
  }
}

/** The JSON object of a model's answer (a code fence or words around it tolerated). */
function jsonOf(text: string): unknown {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end <= start) return undefined
  try {
    return JSON.parse(text.slice(start, end + 1))
  } catch {
    return undefined
  }
}

/**
 * The proposal in a model's answer, checked: only the slides asked about, each mutation a
 * `text.replace` or `notes.set` that applies to a copy of the deck. 422 `unprocessable` otherwise,
 * with what was wrong.
 */
export async function proposalOf(doc: DeckDoc, input: ProposeInput, answer: string, by: string): Promise<Proposal> {
  const refuse = (why: string): never => fail('unprocessable', `The assistant's answer is not a proposal this deck can take: ${why}. Nothing was stored; ask again.`)
  const value = jsonOf(answer) as { summary?: unknown; slides?: unknown } | undefined
  if (!value || typeof value !== 'object') refuse('it holds no JSON object')
  if (typeof value!.summary !== 'string' || !value!.summary.trim()) refuse('it has no summary')
  if (!Array.isArray(value!.slides) || !value!.slides.length) refuse('it names no slide')
  const asked = new Set(input.slideIds)
  const slides: Proposal['slides'] = []
  const trial = cloneDoc(doc)
  const { applyAll } = await import('../actions/slide/update.js')
  for (const [i, entry] of (value!.slides as unknown[]).entries()) {
    const slide = entry as { slideId?: unknown; mutations?: unknown }
    if (!slide || typeof slide.slideId !== 'string' || !asked.has(slide.slideId)) refuse(`slides[${i}] names ${JSON.stringify(slide?.slideId)}, not one of the slides asked about (${[...asked].join(', ')})`)
    if (!Array.isArray(slide.mutations) || !slide.mutations.length) refuse(`slides[${i}] has no mutations`)
    const mutations = (slide.mutations as unknown[]).map((m, k) => {
      const mutation = m as Record<string, unknown>
      if (!mutation || typeof mutation !== 'object' || (mutation.kind !== 'text.replace' && mutation.kind !== 'notes.set')) refuse(`slides[${i}].mutations[${k}] is not a text.replace or notes.set`)
      return mutation.kind === 'text.replace' ? { kind: 'text.replace', pointer: String(mutation.pointer), text: String(mutation.text) } : { kind: 'notes.set', notes: String(mutation.notes) }
    })
    try {
      await applyAll(trial, slide.slideId as string, mutations as never)
    } catch (error) {
      refuse(`on slide ${slide.slideId as string}, ${error instanceof Error ? error.message : String(error)}`)
    }
    slides.push({ slideId: slide.slideId as string, mutations })
  }
  return { kind: input.kind, ...(input.kind === 'ask' ? { ask: input.ask!.trim() } : {}), summary: (value!.summary as string).trim().slice(0, 2000), slides, revision: doc.manifest.revision, by }
}

/** A proposal's thread text (its id follows from it, the deck, the slide and the comments revision). */
export const proposalText = (input: ProposeInput) => `Proposal (${input.kind}) for ${input.slideIds.join(', ')}${input.kind === 'ask' ? `: ${input.ask!.trim()}` : ''}`
