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
  output: planned(
    result({
      principal: Principal,
      trust: str({ description: 'The trust state.' }),
      label: str({ description: 'The display name.' }),
      mark: str({ description: 'The avatar mark (SVG).' }),
      avatar: Avatar,
      sessions: arr(obj({ id: str(), device: str(), createdAt: IsoTime, lastSeenAt: IsoTime, current: bool() }), { description: 'Sign-in sessions.' }),
    }),
  ),
  cli: 'account me --avatar-png <avatarPng>',
  mcp: 'deck_get_me',
  example: {},
})

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
  switches: (input: { variant?: unknown }) => (input.variant === 'picture' ? ['uploads'] : []),
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
