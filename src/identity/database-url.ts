/** The PostgreSQL URL of the deployment's database (STUDIO_DATABASE_URL: the hosted studio), where one is set. */
export function databaseUrl(): string | undefined {
  return process.env.STUDIO_DATABASE_URL?.trim() || undefined
}
