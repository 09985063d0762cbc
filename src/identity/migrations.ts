/**
 * The identity database's migrations, in order, as code (no migration folder to find at run time: the
 * CLI is bundled). Each is written with Kysely's schema builder and only types both engines share, so
 * the same list runs on SQLite and on PostgreSQL (issue 27). Kysely's Migrator records what ran in
 * `kysely_migration` and takes its own lock, so two processes opening one database at once run each
 * migration once. A migration, once released, is never edited: a change is a new entry.
 */
import { sql, type Kysely, type Migration } from 'kysely'

const text = 'text' as const
const int = 'integer' as const

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_identity': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('principals')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('kind', text, (c) => c.notNull())
        .addColumn('email', text, (c) => c.unique())
        .addColumn('name', text)
        .addColumn('name_skeleton', text)
        .addColumn('avatar', text)
        .addColumn('trust', text, (c) => c.notNull().defaultTo('unverified'))
        .addColumn('is_admin', int, (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('last_seen_at', text)
        .execute()

      await db.schema
        .createTable('sessions')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('principal_id', text, (c) => c.notNull().references('principals.id').onDelete('cascade'))
        .addColumn('kind', text, (c) => c.notNull())
        .addColumn('secret_hash', text, (c) => c.notNull().unique())
        .addColumn('link_id', text)
        .addColumn('deck_id', text)
        .addColumn('method', text)
        .addColumn('user_agent', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('last_used_at', text)
        .addColumn('authenticated_at', text)
        .addColumn('expires_at', text, (c) => c.notNull())
        .addColumn('revoked_at', text)
        .execute()
      await db.schema.createIndex('sessions_principal').on('sessions').column('principal_id').execute()
      await db.schema.createIndex('sessions_link').on('sessions').column('link_id').execute()

      await db.schema
        .createTable('api_keys')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('principal_id', text, (c) => c.notNull().references('principals.id').onDelete('cascade'))
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('scopes', text, (c) => c.notNull())
        .addColumn('secret_hash', text, (c) => c.notNull().unique())
        .addColumn('hint', text, (c) => c.notNull())
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('expires_at', text)
        .addColumn('last_used_at', text)
        .addColumn('revoked_at', text)
        .execute()
      await db.schema.createIndex('api_keys_principal').on('api_keys').column('principal_id').execute()

      await db.schema
        .createTable('magic_links')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('email', text, (c) => c.notNull())
        .addColumn('secret_hash', text, (c) => c.notNull().unique())
        .addColumn('next', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('expires_at', text, (c) => c.notNull())
        .addColumn('used_at', text)
        .execute()

      await db.schema
        .createTable('passkeys')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('principal_id', text, (c) => c.notNull().references('principals.id').onDelete('cascade'))
        .addColumn('public_key', text, (c) => c.notNull())
        .addColumn('counter', int, (c) => c.notNull().defaultTo(0))
        .addColumn('transports', text)
        .addColumn('name', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('last_used_at', text)
        .execute()
      await db.schema.createIndex('passkeys_principal').on('passkeys').column('principal_id').execute()

      await db.schema
        .createTable('challenges')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('challenge', text, (c) => c.notNull())
        .addColumn('purpose', text, (c) => c.notNull())
        .addColumn('principal_id', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('expires_at', text, (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('deck_access')
        .addColumn('deck_id', text, (c) => c.primaryKey())
        .addColumn('owner_id', text, (c) => c.notNull().references('principals.id'))
        .addColumn('revision', int, (c) => c.notNull().defaultTo(0))
        .addColumn('general_mode', text, (c) => c.notNull().defaultTo('restricted'))
        .addColumn('general_role', text, (c) => c.notNull().defaultTo('viewer'))
        .addColumn('general_link_id', text)
        .addColumn('settings', text, (c) => c.notNull())
        .addColumn('pending_owner', text)
        .addColumn('updated_at', text, (c) => c.notNull())
        .addColumn('updated_by', text)
        .execute()
      await db.schema.createIndex('deck_access_owner').on('deck_access').column('owner_id').execute()

      await db.schema
        .createTable('grants')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('deck_id', text, (c) => c.notNull())
        .addColumn('principal_id', text, (c) => c.references('principals.id').onDelete('cascade'))
        .addColumn('email', text)
        .addColumn('role', text, (c) => c.notNull())
        .addColumn('expires_at', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('created_by', text, (c) => c.notNull())
        .execute()
      await db.schema.createIndex('grants_deck_principal').on('grants').columns(['deck_id', 'principal_id']).unique().execute()
      await db.schema.createIndex('grants_deck_email').on('grants').columns(['deck_id', 'email']).unique().execute()
      await db.schema.createIndex('grants_principal').on('grants').column('principal_id').execute()
      await db.schema.createIndex('grants_email').on('grants').column('email').execute()

      await db.schema
        .createTable('links')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('deck_id', text, (c) => c.notNull())
        .addColumn('role', text, (c) => c.notNull())
        .addColumn('label', text)
        .addColumn('token_hash', text, (c) => c.notNull().unique())
        .addColumn('general', int, (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('created_by', text, (c) => c.notNull())
        .addColumn('dead_at', text)
        .addColumn('dead_reason', text)
        .execute()
      await db.schema.createIndex('links_deck').on('links').column('deck_id').execute()

      await db.schema
        .createTable('access_requests')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('deck_id', text, (c) => c.notNull())
        .addColumn('requester_id', text, (c) => c.notNull().references('principals.id').onDelete('cascade'))
        .addColumn('email', text)
        .addColumn('role', text, (c) => c.notNull())
        .addColumn('message', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('status', text, (c) => c.notNull())
        .addColumn('answered_at', text)
        .addColumn('answered_by', text)
        .addColumn('granted_role', text)
        .execute()
      await db.schema.createIndex('access_requests_deck').on('access_requests').columns(['deck_id', 'status']).execute()
      // One pending request per deck and requester: the database says so, whatever raced.
      await sql`create unique index access_requests_pending on access_requests (deck_id, requester_id) where status = 'pending'`.execute(db)
    },
  },
  '0002_flags': {
    // The kill switches of a deployment whose database is PostgreSQL: every instance reads them here
    // (src/store/flags.ts). A checkout keeps them in .studio/flags.json and never writes this table.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('flags')
        .addColumn('name', text, (c) => c.primaryKey())
        .addColumn('is_on', int, (c) => c.notNull())
        .addColumn('changed_at', text, (c) => c.notNull())
        .addColumn('changed_by', text)
        .execute()
    },
  },
  '0003_name_keys': {
    // Names' keys made again by today's rule (names.ts nameKey: i, I and l are one letter), so a stored
    // key compares with a new one.
    async up(db: Kysely<any>) {
      const { nameKey } = await import('./names.js')
      const named = (await db.selectFrom('principals').select(['id', 'name']).where('name', 'is not', null).execute()) as { id: string; name: string }[]
      for (const row of named) await db.updateTable('principals').set({ name_skeleton: nameKey(row.name) }).where('id', '=', row.id).execute()
    },
  },
  '0004_rate_limits': {
    // The rate limits' counters of a deployment whose database is PostgreSQL, shared by its instances
    // (src/identity/limits.ts; the columns rate-limiter-flexible's RateLimiterPostgres reads and writes:
    // a key that is a hash, never an address, the points used, when the window ends in ms). A checkout
    // counts in its process's memory and never writes this table.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', text, (c) => c.primaryKey())
        .addColumn('points', int, (c) => c.notNull().defaultTo(0))
        .addColumn('expire', 'bigint')
        .execute()
    },
  },
}
