import { defineConfig } from 'drizzle-kit'

// PostgreSQL's migrations (src/db/postgres/): `bun run db:generate` runs drizzle-kit with this file too.
export default defineConfig({
  dialect: 'postgresql',
  // the SQLite twin's tables, plus the PostgreSQL-only ones
  schema: ['./src/db/postgres/schema/index.ts', './src/db/postgres/schema/quota-holds.ts', './src/db/postgres/schema/plan-holds.ts'],
  out: './src/db/postgres/migrations',
})
