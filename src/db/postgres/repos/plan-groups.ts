import { and, desc, eq, gt, lte, ne } from 'drizzle-orm'
import { first, type PgRunner, type PgTx } from './sql'
import { userSubscriptions, users } from '../schema'
import type { EndedPlan, NewUserSubscription, UserSubscriptionRow } from '../../repos/subscriptions'

const s = userSubscriptions
/** src/db/sqlite/repos/plan-groups.ts: how far a restore follows groups given back by plans that ended before. */
const MAX_CHAIN = 8

const holderOf = async (db: PgRunner, userId: number, group: string, now: number, except = 0) =>
  first(
    await db
      .select()
      .from(s)
      .where(and(eq(s.userId, userId), eq(s.upgradeGroup, group), eq(s.status, 'active'), lte(s.startTime, now), gt(s.endTime, now), ne(s.id, except)))
      .orderBy(desc(s.endTime), desc(s.id))
      .limit(1),
  )

// the user's row locked first: a grant and an end of the same user's plans on two nodes take turns
const groupOf = async (tx: PgTx, userId: number) => first(await tx.select({ group: users.group }).from(users).where(eq(users.id, userId)).for('update'))?.group

/** src/db/sqlite/repos/plan-groups.ts `grantRaising`, in the caller's transaction. */
export async function grantRaising(tx: PgTx, row: NewUserSubscription, now: number): Promise<UserSubscriptionRow> {
  const group = row.upgradeGroup ?? ''
  if (!group) return (await tx.insert(s).values(row).returning())[0]!
  const current = (await groupOf(tx, row.userId)) ?? ''
  const prev = current === group ? ((await holderOf(tx, row.userId, group, now))?.prevUserGroup ?? '') : current
  if (current !== group) await tx.update(users).set({ group }).where(eq(users.id, row.userId))
  return (await tx.insert(s).values({ ...row, prevUserGroup: prev }).returning())[0]!
}

/** src/db/sqlite/repos/plan-groups.ts `endRestoring`. */
export async function endRestoring(tx: PgTx, id: number, status: string, now: number): Promise<EndedPlan | undefined> {
  const owner = first(await tx.select({ userId: s.userId }).from(s).where(eq(s.id, id)))
  if (!owner) return undefined
  const current = await groupOf(tx, owner.userId)
  const row = first(await tx.update(s).set({ status, updatedAt: now }).where(and(eq(s.id, id), eq(s.status, 'active'))).returning())
  if (!row) return undefined
  if (!row.upgradeGroup || !row.prevUserGroup) return { userId: row.userId }
  if (current !== row.upgradeGroup || (await holderOf(tx, row.userId, row.upgradeGroup, now))) return { userId: row.userId }
  const group = await givenBack(tx, row, now)
  await tx.update(users).set({ group }).where(eq(users.id, row.userId))
  return { userId: row.userId, restoredGroup: group }
}

async function givenBack(tx: PgTx, row: UserSubscriptionRow, now: number): Promise<string> {
  let group = row.prevUserGroup
  for (let step = 0; step < MAX_CHAIN; step++) {
    if (await holderOf(tx, row.userId, group, now)) return group
    const ended = first(
      await tx
        .select({ prev: s.prevUserGroup })
        .from(s)
        .where(and(eq(s.userId, row.userId), eq(s.upgradeGroup, group), ne(s.status, 'active'), ne(s.prevUserGroup, '')))
        .orderBy(desc(s.updatedAt), desc(s.id))
        .limit(1),
    )
    if (!ended || ended.prev === group) return group
    group = ended.prev
  }
  return group
}

export const dueUpgrades = async (db: PgRunner, now: number, limit: number): Promise<number[]> =>
  (
    await db
      .select({ id: s.id })
      .from(s)
      .where(and(eq(s.status, 'active'), lte(s.endTime, now), ne(s.upgradeGroup, '')))
      .orderBy(s.endTime, s.id)
      .limit(limit)
  ).map((r) => r.id)
