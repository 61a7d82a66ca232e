import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/sqlite/schema/index.ts',
  out: './src/db/sqlite/migrations',
})
