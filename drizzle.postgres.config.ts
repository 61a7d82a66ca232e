import { defineConfig } from 'drizzle-kit'

// PostgreSQL's migrations (src/db/postgres/): `bun run db:generate` runs drizzle-kit with this file too.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres/schema/index.ts',
  out: './src/db/postgres/migrations',
})
