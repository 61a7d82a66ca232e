import { asc, eq } from 'drizzle-orm'
import type { PgDb } from '../client'
import { customOAuthProviders, userBindings } from '../schema'
import { nowSeconds } from '../schema/time'
import type { CustomOAuthRepo } from '../../repos/custom-oauth'

export function createCustomOAuthRepo(db: PgDb): CustomOAuthRepo {
  const table = customOAuthProviders
  return {
    list: async () => db.select().from(table).orderBy(asc(table.id)),
    findById: async (id) => (await db.select().from(table).where(eq(table.id, id)))[0],
    findBySlug: async (slug) => (await db.select().from(table).where(eq(table.slug, slug)))[0],
    insert: async (fields) => (await db.insert(table).values(fields).returning())[0]!,
    update: async (id, fields) => (await db.update(table).set({ ...fields, updatedTime: nowSeconds }).where(eq(table.id, id)).returning())[0],
    delete: async (id) =>
      db.transaction(async (tx) => {
        await tx.delete(userBindings).where(eq(userBindings.provider, `custom:${id}`))
        return (await tx.delete(table).where(eq(table.id, id)).returning({ id: table.id })).length > 0
      }),
  }
}
