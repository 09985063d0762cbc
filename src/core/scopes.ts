/** API-key scopes (account.tokens.create): a module of its own so the action table's declarations name them without loading the role table. */
export const SCOPES = ['read', 'comment', 'write', 'export', 'share', 'admin'] as const
export type Scope = (typeof SCOPES)[number]
