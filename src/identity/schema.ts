/**
 * The identity database's tables, as the query layer (Kysely) types them. One schema for both engines:
 * SQLite through better-sqlite3 (the embedded default, `.studio/identity.db`) and PostgreSQL (hosted,
 * issue 27). So the columns keep to what both store alike: text ids, ISO-8601 UTC times as text (they
 * sort as they compare), booleans as integers 0/1, JSON as text, counters as integers.
 *
 * Secrets never land here: a session, an API key, a link token, a magic link are stored as the
 * SHA-256 of the secret (src/identity/secrets.ts), looked up by that hash.
 */
/** Someone or something that calls: a signed-in person, an anonymous browser, an agent. */
export interface PrincipalTable {
  id: string
  kind: 'person' | 'anonymous' | 'agent'
  /** Lower-cased, NFC; unique among people. Null for anonymous browsers and agents. */
  email: string | null
  /** The display name (account.setName), NFC. */
  name: string | null
  /** The UTS #39 skeleton of `name`, for the per-deck uniqueness check. */
  name_skeleton: string | null
  /** JSON: the avatar choice { variant, initials?, salt?, picture? (object key) }. */
  avatar: string | null
  /** 'unverified' (anonymous, agent), 'verified' (signed in by mail or passkey). */
  trust: 'unverified' | 'verified'
  /** 1 for administrators (admin.bootstrap, or an admin's grant). */
  is_admin: number
  created_at: string
  last_seen_at: string | null
}

/** A browser session: signed in, anonymous (the `studio_anon` cookie) or reached through a share link. */
export interface SessionTable {
  id: string
  principal_id: string
  kind: 'signin' | 'anonymous' | 'link'
  secret_hash: string
  /** For a link session: the link it came through (dies with it) and the deck it opens. */
  link_id: string | null
  deck_id: string | null
  /** How the person signed in: 'mail', 'passkey'; null for anonymous and link sessions. */
  method: string | null
  user_agent: string | null
  created_at: string
  last_used_at: string | null
  /** The last sign-in (or re-authentication) on this session: share.settings asks for one within 10 minutes on the page. */
  authenticated_at: string | null
  expires_at: string
  revoked_at: string | null
}

/** An API key: the secret shown once, stored as its hash. */
export interface ApiKeyTable {
  id: string
  principal_id: string
  name: string
  /** JSON array of read, comment, write, export, share, admin. */
  scopes: string
  secret_hash: string
  /** The first characters of the secret, shown in lists so a person can tell keys apart (never enough to use). */
  hint: string
  created_at: string
  expires_at: string | null
  last_used_at: string | null
  revoked_at: string | null
}

/** A sign-in link sent by mail: one use, short-lived. */
export interface MagicLinkTable {
  id: string
  email: string
  secret_hash: string
  /** Where the page goes after sign-in (a path on this studio). */
  next: string | null
  created_at: string
  expires_at: string
  used_at: string | null
}

/** A passkey (WebAuthn credential) of a person. */
export interface PasskeyTable {
  /** The credential id, base64url. */
  id: string
  principal_id: string
  /** The COSE public key, base64url. */
  public_key: string
  counter: number
  /** JSON array of transports the authenticator named. */
  transports: string | null
  name: string | null
  created_at: string
  last_used_at: string | null
}

/** A WebAuthn challenge issued and not yet answered (one use, five minutes). */
export interface ChallengeTable {
  id: string
  challenge: string
  purpose: 'register' | 'authenticate'
  principal_id: string | null
  created_at: string
  expires_at: string
}

/**
 * A deck's access record (the spec's share record) beside its grants, links and requests: its own
 * revision, which every share write takes as baseRevision (one conditional update is the guard).
 */
export interface DeckAccessTable {
  deck_id: string
  owner_id: string
  revision: number
  general_mode: 'restricted' | 'link'
  general_role: 'viewer' | 'commenter' | 'editor'
  /** The link general access minted (a row of links), while the mode is link. */
  general_link_id: string | null
  /** JSON: the five settings switches. */
  settings: string
  /** JSON: the pending ownership offer { principalId } or { email }, with who offered and when. */
  pending_owner: string | null
  updated_at: string
  updated_by: string | null
}

/** A role given to a principal or to an email address (an invitation not yet taken up). */
export interface GrantTable {
  id: string
  deck_id: string
  principal_id: string | null
  email: string | null
  role: 'viewer' | 'commenter' | 'editor'
  expires_at: string | null
  created_at: string
  created_by: string
}

/** A share link: its token stored as a hash; dead links (revoked, rotated away, expired) kept 30 days for share.get. */
export interface LinkTable {
  id: string
  deck_id: string
  role: 'viewer' | 'commenter' | 'editor'
  label: string | null
  token_hash: string
  /** 1 for the link general access minted. */
  general: number
  expires_at: string | null
  created_at: string
  created_by: string
  dead_at: string | null
  dead_reason: 'revoked' | 'rotated' | 'stopped' | 'expired' | null
}

/** A request for access to a deck, pending until the owner answers. */
export interface AccessRequestTable {
  id: string
  deck_id: string
  requester_id: string
  email: string | null
  role: 'viewer' | 'commenter' | 'editor'
  message: string | null
  created_at: string
  status: 'pending' | 'approved' | 'declined'
  answered_at: string | null
  answered_by: string | null
  granted_role: string | null
}

export interface IdentityTables {
  principals: PrincipalTable
  sessions: SessionTable
  api_keys: ApiKeyTable
  magic_links: MagicLinkTable
  passkeys: PasskeyTable
  challenges: ChallengeTable
  deck_access: DeckAccessTable
  grants: GrantTable
  links: LinkTable
  access_requests: AccessRequestTable
  flags: FlagTable
  rate_limits: RateLimitTable
}

/** A rate limit's counter, where the database is PostgreSQL (src/identity/limits.ts; rate-limiter-flexible's columns). */
export interface RateLimitTable {
  /** The limit's name and a SHA-256 of what it counts (an address, a client): never the value itself. */
  key: string
  points: number
  /** When the window ends, in ms since the epoch (PostgreSQL's bigint, read back as a string). */
  expire: string | null
}

/** A kill switch of the deployment, where the database is PostgreSQL (src/store/flags.ts). */
export interface FlagTable {
  name: string
  is_on: number
  changed_at: string
  changed_by: string | null
}
