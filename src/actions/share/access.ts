import { defineAction } from '../../core/action.js'
import { arr, bool, obj, oneOf, opt, Role, str } from '../../model/schema.js'
import { result, written } from '../../model/results.js'
import { ACCESS_RECORD, AccessRecord, AccessRevision, AccessRevisionAfter, LinkId, ShareDeck, ShareSettings } from './schemas.js'
import * as run from './run.js'

export const shareSetGeneralAccess = defineAction({
  id: 'share.setGeneralAccess',
  label: 'Set general access',
  doc: "Sets the deck's general access to restricted or to anyone with the link at a role (viewer by default). Link mode mints a token and answers its /s/ URL once.",
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({
    id: ShareDeck,
    mode: oneOf(['restricted', 'link'], { description: 'restricted, or anyone with the link.' }),
    role: opt({ ...Role, default: 'viewer', description: 'Role of link visitors (default viewer).' }),
    baseRevision: AccessRevision,
  }),
  output: (written({ access: AccessRecord, url: opt(str({ description: 'The /s/ URL, answered once when a token was minted.' })), revision: AccessRevisionAfter })),
  cli: 'share access <id> --mode <mode> --role <role>',
  mcp: 'deck_set_general_access',
  example: { id: 'quarterly-review', mode: 'link', role: 'commenter', baseRevision: 0 },
  capability: 'share',
  run: run.setGeneralAccess,
})

export const shareStop = defineAction({
  id: 'share.stop',
  label: 'Stop sharing',
  doc: 'Sets general access to restricted and revokes every link.',
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({ id: ShareDeck, baseRevision: AccessRevision }),
  output: (written({ access: AccessRecord, revoked: arr(LinkId, { description: 'The links revoked.' }), revision: AccessRevisionAfter })),
  cli: 'share stop <id>',
  mcp: 'deck_stop_sharing',
  annotations: { destructive: true, idempotent: true },
  example: { id: 'quarterly-review', baseRevision: 0 },
  capability: 'share',
  run: run.stop,
})

export const shareSettings = defineAction({
  id: 'share.settings',
  label: 'Sharing settings',
  doc: "Sets the deck's five sharing switches. Owner only; on the window transport it needs a re-authentication within 10 minutes.",
  group: 'share',
  milestone: 'M9',
  mutates: true,
  transports: 'CMHP',
  ...ACCESS_RECORD,
  input: obj({
    id: ShareDeck,
    editorsCanShare: opt(bool({ description: 'Editors may share the deck.' })),
    viewersCanDownload: opt(bool({ description: 'Viewers and commenters may download, print and copy.' })),
    viewersCanSeeComments: opt(bool({ description: 'Viewers see comment threads.' })),
    showNamesToLinkVisitors: opt(bool({ description: 'Link visitors see the names of people present.' })),
    allowHtmlBlocks: opt(bool({ description: 'HTML blocks run in this deck.' })),
    baseRevision: AccessRevision,
  }),
  output: (written({ settings: ShareSettings, revision: AccessRevisionAfter })),
  cli: 'share settings <id> --editors-can-share <editorsCanShare> --viewers-can-download <viewersCanDownload> --viewers-can-see-comments <viewersCanSeeComments> --show-names-to-link-visitors <showNamesToLinkVisitors> --allow-html-blocks <allowHtmlBlocks>',
  mcp: 'deck_share_settings',
  annotations: { idempotent: true },
  example: { id: 'quarterly-review', editorsCanShare: false, viewersCanDownload: true, baseRevision: 0 },
  capability: 'share',
  run: run.settings,
})
