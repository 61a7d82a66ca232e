import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { userBindings, users } from '../schema'
import type { BindingRepo } from '../../repos/bindings'

export function createBindingRepo(db: Db): BindingRepo {
  return {
    findUserId: async (provider, externalId) =>
      db.select({ userId: userBindings.userId }).from(userBindings).where(and(eq(userBindings.provider, provider), eq(userBindings.externalId, externalId))).get()?.userId,
    listByUser: async (userId) => db.select().from(userBindings).where(eq(userBindings.userId, userId)).orderBy(asc(userBindings.id)).all(),
    bind: async (userId, provider, externalId) => db.insert(userBindings).values({ userId, provider, externalId }).returning().get(),
    emailOwner: async (email) => db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1).get()?.id,
    unbind: async (userId, provider) =>
      db.delete(userBindings).where(and(eq(userBindings.userId, userId), eq(userBindings.provider, provider))).returning({ id: userBindings.id }).all().length > 0,
  }
}
