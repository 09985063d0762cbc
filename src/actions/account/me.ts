import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { arr, bool, int, IsoTime, obj, oneOf, opt, str } from '../../model/schema.js'
import { planned, result, RevisionIfWritten, written } from '../../model/results.js'

const Principal = obj({ id: str(), kind: oneOf(['person', 'anonymous', 'agent']) }, { description: 'A principal: id and kind.' })
const Avatar = obj({ variant: oneOf(['initials', 'glyph', 'dither', 'picture']), initials: opt(str()), salt: opt(int()) }, { description: 'The avatar choice.' })

const PICTURE_TYPES: Record<string, string> = { '.jpg': 'jpeg', '.jpeg': 'jpeg', '.png': 'png', '.webp': 'webp', '.gif': 'gif' }

/** `--picture <file>`: a data URL of the file (a data URL given as is stays unchanged). */
function pictureDataUrl(file: string): string {
  if (file.startsWith('data:')) return file
  const type = PICTURE_TYPES[extname(file).toLowerCase()] ?? 'png'
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch {
    fail('invalid_input', `Cannot read the picture file "${file}".`, { path: 'picture' })
  }
  return `data:image/${type};base64,${bytes.toString('base64')}`
}

export const accountMe = defineAction({
  id: 'account.me',
  label: 'Who am I',
  doc: 'The calling principal: trust state, label, mark, avatar choice and sessions; on the CLI avatarPng also writes the mark as a PNG.',
  group: 'account',
  milestone: 'M9',
  mutates: false,
  transports: 'CMHP',
  input: obj({ avatarPng: opt(str({ minLength: 1, description: 'CLI: write the mark as a PNG to this path.' })) }),
  output: result({
    principal: Principal,
    trust: str({ description: 'The trust state: verified (signed in by mail or passkey) or unverified.' }),
    label: str({ description: 'The display name.' }),
    mark: str({ description: 'The avatar mark (SVG).' }),
    avatar: Avatar,
    sessions: arr(obj({ id: str(), device: str(), createdAt: IsoTime, lastSeenAt: IsoTime, current: bool() }), { description: 'Sign-in sessions.' }),
  }),
  cli: 'account me --avatar-png <avatarPng>',
  mcp: 'deck_get_me',
  example: {},
  human: (r: { label: string; trust: string; principal: { id: string; kind: string } }) => `${r.label} (${r.principal.kind}, ${r.trust}, ${r.principal.id})`,
  run: async (ctx) => {
    const { ownAccount } = await import('../../identity/account.js')
    const { principalById, labelOf } = await import('../../identity/principals.js')
    const { listedSessions } = await import('./sessions.js')
    const { identity, caller, principalId } = await ownAccount(ctx)
    const row = await principalById(identity.db, principalId)
    if (!row) fail('unauthorized', 'Sign in first: this call is about your account, and this request carries none.')
    const label = labelOf(row)
    let avatar: { variant: 'initials' | 'glyph' | 'dither' | 'picture'; initials?: string; salt?: number } = { variant: 'initials' }
    try {
      if (row.avatar) avatar = { ...avatar, ...(JSON.parse(row.avatar) as object) }
    } catch {
      // A stored choice that does not parse shows the initials.
    }
    const initials = avatar.initials ?? initialsOf(label)
    return {
      principal: { id: row.id, kind: row.kind },
      trust: row.trust,
      label,
      mark: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="#222"/><text x="16" y="21" font-size="13" text-anchor="middle" fill="#fff" font-family="sans-serif">${escapeXml(initials)}</text></svg>`,
      avatar: { variant: avatar.variant, ...(avatar.initials ? { initials: avatar.initials } : {}), ...(typeof avatar.salt === 'number' ? { salt: avatar.salt } : {}) },
      sessions: await listedSessions(identity.db, principalId, caller.sessionId),
    }
  },
})

function initialsOf(label: string): string {
  const words = label.split(/[\s@._-]+/u).filter(Boolean)
  return (words.length > 1 ? words[0][0] + words[1][0] : (words[0] ?? '?').slice(0, 2)).toUpperCase()
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export const accountSetName = defineAction({
  id: 'account.setName',
  label: 'Set my name',
  doc: 'Sets the display name: NFC normalized, 1 to 40 code points including a letter or digit, no bidirectional control characters, not reserved or confusable, unique per deck by skeleton. Refusals use fixed sentences.',
  group: 'account',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  input: obj({ name: str({ minLength: 1, maxLength: 40, description: 'Display name, 1 to 40 code points.' }) }),
  output: planned(written({ label: str({ description: 'The stored name.' }), mark: str({ description: 'The avatar mark (SVG).' }), revision: RevisionIfWritten })),
  cli: 'account name <name>',
  mcp: 'deck_set_my_name',
  annotations: { idempotent: true },
  example: { name: 'Ana Lima' },
})

export const accountSetAvatar = defineAction({
  id: 'account.setAvatar',
  label: 'Set my avatar',
  doc: 'Chooses the avatar: initials, a glyph, a dither plate or a picture (signed-in principals only). salt picks another glyph or plate; a picture is re-encoded and no original is kept.',
  group: 'account',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    variant: oneOf(['initials', 'glyph', 'dither', 'picture'], { description: 'Avatar kind; picture for signed-in principals only.' }),
    initials: opt(str({ minLength: 1, maxLength: 3, description: 'Initials shown.' })),
    salt: opt(int({ minimum: 0, description: 'Another glyph or plate.' })),
    picture: opt(
      str({
        pattern: '^data:image/(jpeg|png|webp|gif);base64,',
        maxLength: 700000,
        description: 'Data URL of a JPEG, PNG, WebP or GIF under 512 KB.',
      }),
    ),
  }),
  output: planned(written({ avatar: Avatar, mark: str({ description: 'The computed mark (SVG).' }), revision: RevisionIfWritten })),
  cli: 'account avatar --variant <variant> --initials <initials> --another --picture <file>',
  mcp: 'deck_set_my_avatar',
  cliInput: (parsed) => {
    const input = { ...parsed.input }
    if (parsed.flags.another && input.salt === undefined) input.salt = Math.floor(Math.random() * 1_000_000)
    if (typeof parsed.flags.picture === 'string') input.picture = pictureDataUrl(parsed.flags.picture)
    return input
  },
  example: { variant: 'initials', initials: 'AL' },
})
