import { eq } from 'drizzle-orm'
import type { Db } from '../client'
import { options } from '../schema'
import type { OptionRepo } from '../../repos/options'

export function createOptionRepo(db: Db): OptionRepo {
  return {
    all: async () => Object.fromEntries(db.select().from(options).all().map((row) => [row.key, row.value])),
    async set(key, value) {
      db.insert(options).values({ key, value }).onConflictDoUpdate({ target: options.key, set: { value } }).run()
    },
    delete: async (key) => void db.delete(options).where(eq(options.key, key)).run(),
  }
}
