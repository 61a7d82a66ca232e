import { eq } from 'drizzle-orm'
import type { Db } from '../client'
import { options } from '../schema'

/** Raw key/value rows; typing and defaults live in src/options/. */
export function createOptionRepo(db: Db) {
  return {
    all: (): Record<string, string> =>
      Object.fromEntries(db.select().from(options).all().map((row) => [row.key, row.value])),
    set(key: string, value: string): void {
      db.insert(options).values({ key, value }).onConflictDoUpdate({ target: options.key, set: { value } }).run()
    },
    delete: (key: string) => void db.delete(options).where(eq(options.key, key)).run(),
  }
}

export type OptionRepo = ReturnType<typeof createOptionRepo>
