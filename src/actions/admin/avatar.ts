import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { defineAction } from '../../core/action.js'
import { fail } from '../../core/errors.js'
import { arr, bool, obj, opt, str } from '../../model/schema.js'
import { RevisionIfWritten, written } from '../../model/results.js'
import { avatarDir, isPictureKey } from '../../identity/avatar.js'
import { identityOf } from '../../identity/db.js'
import { namedPictures } from '../../identity/profile.js'

/** A picture object younger than this is kept even when no profile names it (an avatar being set names it a moment later). */
const SWEEP_AGE_MS = 24 * 60 * 60 * 1000

export const adminAvatarSweep = defineAction({
  id: 'admin.avatar.sweep',
  label: 'Sweep orphan avatars',
  doc: 'Removes picture avatar files under u/ that no profile names and that are older than a day, by key; refused without an identity database.',
  group: 'admin',
  milestone: 'M9',
  mutates: true,
  transports: 'CH',
  capability: 'admin',
  input: obj({ dryRun: opt(bool({ description: 'List orphans, remove nothing.' })) }),
  output: written({ orphans: arr(str(), { description: 'Orphan keys found.' }), removed: arr(str(), { description: 'Keys removed (none with dryRun).' }), revision: RevisionIfWritten }),
  cli: 'admin avatar-sweep --to <to> [--dry-run]',
  mcp: null,
  annotations: { destructive: true, idempotent: true },
  example: { dryRun: true },
  run: async (ctx, input: { dryRun?: boolean }) => {
    const identity = await identityOf(ctx.ws)
    if (!identity) fail('refused', 'admin.avatar.sweep works on a studio with accounts (an identity database); this one has none, so it stores no picture avatars.')
    const dir = avatarDir(ctx.ws)
    const names = await readdir(dir).catch(() => [] as string[])
    const now = Date.now()
    // Read the names a profile holds in one transaction that writes: a picture set meanwhile waits for the sweep.
    return identity.write(async (tx) => {
      const named = await namedPictures(tx)
      const orphans: string[] = []
      for (const key of names.sort()) {
        if (!isPictureKey(key) || named.has(key)) continue
        const info = await stat(join(dir, key)).catch(() => null)
        if (info?.isFile() && now - info.mtimeMs > SWEEP_AGE_MS) orphans.push(key)
      }
      if (!input.dryRun) for (const key of orphans) await rm(join(dir, key), { force: true })
      return { orphans, removed: input.dryRun ? [] : orphans }
    })
  },
})
