import { defineAction } from '../../core/action.js'
import { arr, int, IsoTime, obj, opt, Role, str } from '../../model/schema.js'
import { result, written } from '../../model/results.js'
import { expiryOf } from './cli.js'
import { ACCESS_RECORD, AccessRevision, AccessRevisionAfter, LinkId, ShareDeck, ShareLink } from './schemas.js'
import * as run from './run.js'

export const shareCreateLink = defineAction({
  id: 'share.createLink',
  label: 'Create a share link',
  doc: 'Creates a share link with a role, an optional label and expiry; several links with several roles may live at once. The URL is answered once.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({
    id: ShareDeck,
    role: { ...Role, description: 'Role the link gives.' },
    label: opt(str({ maxLength: 80, description: 'Label shown in the link list.' })),
    expiresAt: opt({ ...IsoTime, description: 'Expiry (ISO time; on the CLI also 7d, 30d or 90d); no expiry when absent.' }),
    baseRevision: AccessRevision,
  }),
  output: (written({ link: ShareLink, url: str({ description: 'The link URL, answered once.' }), revision: AccessRevisionAfter })),
  cli: 'share link <id> --role <role> --label <label> --expires <expiresAt>',
  mcp: 'deck_create_share_link',
  cliInput: (parsed) => (parsed.input.expiresAt === undefined ? parsed.input : { ...parsed.input, expiresAt: expiryOf(parsed.input.expiresAt) }),
  example: { id: 'quarterly-review', role: 'viewer', label: 'Board', expiresAt: '2025-12-31T00:00:00Z', baseRevision: 0 },
  capability: 'share',
  run: run.createLink,
})

export const shareRevokeLink = defineAction({
  id: 'share.revokeLink',
  label: 'Revoke a share link',
  doc: 'Revokes a share link; session grants naming it die on their next request.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, linkId: LinkId, baseRevision: AccessRevision }),
  output: (written({ link: { ...ShareLink, description: 'The revoked link.' }, revision: AccessRevisionAfter })),
  cli: 'share revoke-link <id> <linkId>',
  mcp: 'deck_revoke_share_link',
  annotations: { destructive: true, idempotent: true },
  example: { id: 'quarterly-review', linkId: 'l1', baseRevision: 0 },
  capability: 'share',
  run: run.revokeLink,
})

export const shareRotateLink = defineAction({
  id: 'share.rotateLink',
  label: 'Rotate a share link',
  doc: 'Gives a share link a new token: the old token dies and the new URL is answered once.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, linkId: LinkId, baseRevision: AccessRevision }),
  output: (written({ link: ShareLink, url: str({ description: 'The new URL, answered once.' }), revision: AccessRevisionAfter })),
  cli: 'share rotate-link <id> <linkId>',
  mcp: 'deck_rotate_share_link',
  annotations: { destructive: true },
  example: { id: 'quarterly-review', linkId: 'l1', baseRevision: 0 },
  capability: 'share',
  run: run.rotateLink,
})

export const shareListLinks = defineAction({
  id: 'share.listLinks',
  label: 'List share links',
  doc: "The deck's live share links (id, role, label, expiry, creator, creation time, never a token or URL) and the dead links of the last 30 days.",
  group: 'share',
  milestone: 'M9',
  mutates: false,
  capability: 'share',
  transports: 'CMHP',
  input: obj({ id: ShareDeck }),
  output: result({
    links: arr(ShareLink, { description: 'Live links, without tokens.' }),
    deadLinks: arr(ShareLink, { description: 'Links revoked, rotated or expired in the last 30 days.' }),
    revision: int({ minimum: 0, description: "The access record's revision." }),
  }),
  cli: 'share links <id>',
  mcp: 'deck_list_share_links',
  example: { id: 'quarterly-review' },
  run: run.listLinks,
})

export const shareSetLinkRole = defineAction({
  id: 'share.setLinkRole',
  label: 'Set a share link role',
  doc: 'Changes the role a live share link gives, keeping its token and URL; sessions reached through it take the new role on their next request.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, linkId: LinkId, role: { ...Role, description: 'New role the link gives.' }, baseRevision: AccessRevision }),
  output: (written({ link: ShareLink, revision: AccessRevisionAfter })),
  cli: 'share link-role <id> <linkId> --role <role>',
  mcp: 'deck_set_share_link_role',
  annotations: { idempotent: true },
  example: { id: 'quarterly-review', linkId: 'l1', role: 'commenter', baseRevision: 0 },
  capability: 'share',
  run: run.setLinkRole,
})
