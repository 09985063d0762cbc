import type { DeckTarget } from '../../core/action.js'
import { arr, bool, BR, DeckId, int, IsoTime, nullable, obj, oneOf, opt, Role, str, Who } from '../../model/schema.js'

export const ShareDeck = { ...DeckId, description: 'The deck whose access record this reads or writes.' }
export const AccessRevision = { ...BR, description: "baseRevision of the deck's access record; a stale one answers 409." }
export const LinkId = str({ minLength: 1, maxLength: 120, description: 'Share link id.' })
export const PrincipalOrEmail = { ...Who, description: 'A principal id or an email.' }

/**
 * Share writes guard the access record's revision, not the deck's: they guard no deck document
 * and serialize on the deck's access record instead.
 */
export const ACCESS_RECORD: { deck: DeckTarget; locks: (input: { id: string }) => string[] } = {
  deck: { kind: 'none' },
  locks: (input) => [`share-${input.id}`],
}

/** The revision of the deck's access record after a share write (share writes change no deck revision). */
export const AccessRevisionAfter = int({ minimum: 0, description: "The access record's new revision." })

export const ShareSettings = obj(
  { editorsCanShare: bool(), viewersCanDownload: bool(), viewersCanSeeComments: bool(), showNamesToLinkVisitors: bool(), allowHtmlBlocks: bool() },
  { description: 'The five switches.' },
)

export const Grant = obj(
  { who: PrincipalOrEmail, role: Role, expiresAt: { ...nullable(IsoTime), description: 'When the grant expires; null for never.' } },
  { description: 'A grant: who, role, expiry.' },
)

export const ShareLink = obj(
  {
    id: LinkId,
    role: Role,
    label: nullable(str()),
    expiresAt: { ...nullable(IsoTime), description: 'null for no expiry.' },
    createdAt: IsoTime,
    tokenHash: opt(str({ description: 'The hashed token (owner and editors reading the access record).' })),
    endedAt: opt({ ...IsoTime, description: 'Dead links: when it was revoked, rotated or expired.' }),
  },
  { description: 'A share link record; the token itself is answered once, never stored.' },
)

export const AccessRequest = obj(
  { id: str(), requester: str({ description: 'The requester label.' }), email: nullable(str()), role: Role, message: nullable(str()), at: IsoTime },
  { description: 'A pending access request.' },
)

export const OwnerOffer = { owner: str({ description: 'The owner.' }), pendingOwner: { ...nullable(str()), description: 'The pending owner, or null.' } }

export const AccessRecord = obj(
  {
    general: obj({ mode: oneOf(['restricted', 'link']), role: Role }, { description: 'General access.' }),
    grants: arr(Grant, { description: 'Live grants; a viewer or commenter (anyone without the share capability) reads only their own.' }),
    links: opt(arr(ShareLink, { description: 'Live links with hashed tokens (owner and editors only).' })),
    deadLinks: opt(arr(ShareLink, { description: 'Links revoked, rotated or expired in the last 30 days (owner and editors only).' })),
    settings: opt(ShareSettings),
    requests: opt(arr(AccessRequest, { description: 'Pending access requests (owner and editors only).' })),
    owner: str({ description: 'The owner.' }),
    ownerLabel: opt({ ...nullable(str()), description: "The owner's name (or, for owner and editors, their address where they set no name)." }),
    pendingOwner: opt({ ...nullable(str()), description: 'The pending owner, or null (owner and editors only).' }),
    revision: int({ minimum: 0 }),
  },
  { description: 'The access record of a deck (a caller without the share capability reads only the owner, the general access mode, their grant and their capabilities).' },
)

export const Capabilities = arr(str(), { description: 'What the role allows.' })
export const Via = oneOf(['owner', 'grant', 'link', 'general'], { description: 'How the role is reached.' })
