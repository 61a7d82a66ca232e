import { eq } from 'drizzle-orm'
import type { PgDb } from '../client'
import { options } from '../schema'
import type { OptionRepo } from '../../repos/options'

export function createOptionRepo(db: PgDb): OptionRepo {
  return {
    all: async () => Object.fromEntries((await db.select().from(options)).map((row) => [row.key, row.value])),
    async set(key, value) {
      await db.insert(options).values({ key, value }).onConflictDoUpdate({ target: options.key, set: { value } })
    },
    delete: async (key) => void (await db.delete(options).where(eq(options.key, key))),
  }
}
