import { and, desc, eq, gt, lte, ne } from 'drizzle-orm'
import type { Db } from '../client'
import { userSubscriptions, users } from '../schema'
import type { EndedPlan, NewUserSubscription, UserSubscriptionRow } from '../../repos/subscriptions'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
type Runner = Db | Tx
const s = userSubscriptions
/** How far a restore follows groups given back by plans that ended before (A raised to G, B from G to H: B's end gives the group before A). */
const MAX_CHAIN = 8

/** Another of the user's plans in force at `now` that raises to `group`, latest first (`except`: the one ending). */
const holderOf = (db: Runner, userId: number, group: string, now: number, except = 0) =>
  db
    .select()
    .from(s)
    .where(and(eq(s.userId, userId), eq(s.upgradeGroup, group), eq(s.status, 'active'), lte(s.startTime, now), gt(s.endTime, now), ne(s.id, except)))
    .orderBy(desc(s.endTime), desc(s.id))
    .get()

/**
 * Insert a held plan and raise its holder to the plan's upgrade group, in the caller's transaction. The group given
 * back at its end is the user's now; a user already in it through another plan keeps that plan's (nothing to give
 * back when they were in it on their own).
 */
export function grantRaising(db: Runner, row: NewUserSubscription, now: number): UserSubscriptionRow {
  const group = row.upgradeGroup ?? ''
  if (!group) return db.insert(s).values(row).returning().get()
  const current = db.select({ group: users.group }).from(users).where(eq(users.id, row.userId)).get()?.group ?? ''
  const prev = current === group ? (holderOf(db, row.userId, group, now)?.prevUserGroup ?? '') : current
  if (current !== group) db.update(users).set({ group }).where(eq(users.id, row.userId)).run()
  return db.insert(s).values({ ...row, prevUserGroup: prev }).returning().get()
}

/**
 * End a held plan (`status`: cancelled or expired) and give its holder's group back: only when they are still in the
 * plan's upgrade group and no other plan in force holds them there. Undefined when the row is not active.
 */
export function endRestoring(db: Tx, id: number, status: string, now: number): EndedPlan | undefined {
  const row = db.update(s).set({ status, updatedAt: now }).where(and(eq(s.id, id), eq(s.status, 'active'))).returning().get()
  if (!row) return undefined
  if (!row.upgradeGroup || !row.prevUserGroup) return { userId: row.userId }
  const current = db.select({ group: users.group }).from(users).where(eq(users.id, row.userId)).get()?.group
  if (current !== row.upgradeGroup || holderOf(db, row.userId, row.upgradeGroup, now)) return { userId: row.userId }
  const group = givenBack(db, row, now)
  db.update(users).set({ group }).where(eq(users.id, row.userId)).run()
  return { userId: row.userId, restoredGroup: group }
}

/** The group to give back: the plan's previous one, or, when that was itself a plan's upgrade that ended since, the one before it. */
function givenBack(db: Tx, row: UserSubscriptionRow, now: number): string {
  let group = row.prevUserGroup
  for (let step = 0; step < MAX_CHAIN; step++) {
    if (holderOf(db, row.userId, group, now)) return group
    const ended = db
      .select({ prev: s.prevUserGroup })
      .from(s)
      .where(and(eq(s.userId, row.userId), eq(s.upgradeGroup, group), ne(s.status, 'active'), ne(s.prevUserGroup, '')))
      .orderBy(desc(s.updatedAt), desc(s.id))
      .get()
    if (!ended || ended.prev === group) return group
    group = ended.prev
  }
  return group
}

/** The ids of active plans past their end that moved their holder's group, soonest ended first (at most `limit`). */
export const dueUpgrades = (db: Runner, now: number, limit: number): number[] =>
  db
    .select({ id: s.id })
    .from(s)
    .where(and(eq(s.status, 'active'), lte(s.endTime, now), ne(s.upgradeGroup, '')))
    .orderBy(s.endTime, s.id)
    .limit(limit)
    .all()
    .map((r) => r.id)
