import { asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { customOAuthProviders, userBindings } from '../schema'
import type { CustomOAuthRepo } from '../../repos/custom-oauth'

export function createCustomOAuthRepo(db: Db): CustomOAuthRepo {
  const table = customOAuthProviders
  return {
    list: async () => db.select().from(table).orderBy(asc(table.id)).all(),
    findById: async (id) => db.select().from(table).where(eq(table.id, id)).get(),
    findBySlug: async (slug) => db.select().from(table).where(eq(table.slug, slug)).get(),
    insert: async (fields) => db.insert(table).values(fields).returning().get(),
    update: async (id, fields) => db.update(table).set({ ...fields, updatedTime: sql`(unixepoch())` }).where(eq(table.id, id)).returning().get(),
    delete: async (id) =>
      db.transaction((tx) => {
        tx.delete(userBindings).where(eq(userBindings.provider, `custom:${id}`)).run()
        return tx.delete(table).where(eq(table.id, id)).returning({ id: table.id }).all().length > 0
      }),
  }
}
