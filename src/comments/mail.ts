/**
 * Outgoing mail. `STUDIO_MAIL=capture` appends each message as one JSON line to `.studio/mail.jsonl`
 * (admin.mail.list reads it; tests read it); otherwise `STUDIO_SMTP_URL` (smtp://user:pass@host:587,
 * smtps://…) sends it through nodemailer, from `STUDIO_MAIL_FROM`. Neither set: no mail is sent, and
 * no record is claimed for mail (src/comments/notify.ts). The `email` kill switch (admin.flag) stops
 * every message here, whoever sends it: nothing is captured or sent while it is on.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Workspace } from '../store/workspace.js'
import { flagOn } from '../store/flags.js'

export interface Message {
  to: string
  subject: string
  text: string
}

export interface CapturedMessage extends Message {
  at: string
}

const captured = (ws: Workspace) => join(ws.stateDir, 'mail.jsonl')
const capturing = () => process.env.STUDIO_MAIL?.trim() === 'capture'

export const mailConfigured = () => capturing() || Boolean(process.env.STUDIO_SMTP_URL?.trim())

/** Sends (or captures) one message; false when nothing went out (the `email` switch is on, or no mail is configured). */
export async function sendMail(ws: Workspace, message: Message, clock: () => number = Date.now): Promise<boolean> {
  if (flagOn(ws, 'email')) return false
  if (capturing()) {
    await mkdir(ws.stateDir, { recursive: true })
    // One line per message, written with one append: a reader never sees half of one.
    await appendFile(captured(ws), JSON.stringify({ ...message, at: new Date(clock()).toISOString() }) + '\n')
    return true
  }
  const url = process.env.STUDIO_SMTP_URL?.trim()
  if (!url) return false
  const { default: nodemailer } = await import('nodemailer')
  const transport = nodemailer.createTransport(url)
  try {
    await transport.sendMail({ from: process.env.STUDIO_MAIL_FROM?.trim() || 'Deck Studio <studio@localhost>', to: message.to, subject: message.subject, text: message.text })
    return true
  } catch (error) {
    // The record is claimed (at most one mail): a refused message is reported, not retried.
    process.emitWarning(`studio: mail to ${message.to} was not sent: ${(error as Error).message}`)
    return false
  } finally {
    transport.close()
  }
}

/** Captured mail, newest first; undefined when mail is not captured (STUDIO_MAIL is not capture). */
export async function capturedMail(ws: Workspace, filter: { since?: number; limit?: number } = {}): Promise<CapturedMessage[] | undefined> {
  if (!capturing()) return undefined
  let text = ''
  try {
    text = await readFile(captured(ws), 'utf8')
  } catch {
    return []
  }
  const out: CapturedMessage[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const m = JSON.parse(line) as Partial<CapturedMessage>
      if (typeof m.to === 'string' && typeof m.subject === 'string' && typeof m.text === 'string' && typeof m.at === 'string') out.push({ to: m.to, subject: m.subject, text: m.text, at: m.at })
    } catch {
      // A line cut by a crash is skipped.
    }
  }
  return out
    .filter((m) => filter.since === undefined || Date.parse(m.at) > filter.since)
    .reverse()
    .slice(0, filter.limit ?? 100)
}
