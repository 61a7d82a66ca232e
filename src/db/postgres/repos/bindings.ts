import { and, asc, eq, sql } from 'drizzle-orm'
import type { PgDb } from '../client'
import { userBindings, users } from '../schema'
import type { BindingRepo } from '../../repos/bindings'

export function createBindingRepo(db: PgDb): BindingRepo {
  return {
    async findUserId(provider, externalId) {
      const [row] = await db.select({ userId: userBindings.userId }).from(userBindings).where(and(eq(userBindings.provider, provider), eq(userBindings.externalId, externalId)))
      return row?.userId
    },
    listByUser: async (userId) => db.select().from(userBindings).where(eq(userBindings.userId, userId)).orderBy(asc(userBindings.id)),
    async bind(userId, provider, externalId) {
      const [row] = await db.insert(userBindings).values({ userId, provider, externalId }).returning()
      return row!
    },
    async emailOwner(email) {
      const [row] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1)
      return row?.id
    },
    unbind: async (userId, provider) =>
      (await db.delete(userBindings).where(and(eq(userBindings.userId, userId), eq(userBindings.provider, provider))).returning({ id: userBindings.id })).length > 0,
  }
}
