import { and, count, desc, eq, gte, inArray, lte, ne, notInArray, or, lt, sql, type SQL } from 'drizzle-orm'
import type { PgDb } from '../client'
import { logs, tasks, tokens, users } from '../schema'
import { FINAL_TASK_STATUSES, type TaskFilter, type TaskRepo } from '../../repos/tasks'
import { eqInt, first } from './sql'

const running = notInArray(tasks.status, [...FINAL_TASK_STATUSES])

/**
 * Asynchronous tasks on PostgreSQL, shared by every node. A claim locks the due rows it takes with SKIP LOCKED, so
 * two nodes claiming at once take different tasks; ending a task is a conditional UPDATE from a running status, so
 * of two nodes ending one task (a lapsed lease taken over) exactly one writes it, and its refund.
 */
export function createTaskRepo(db: PgDb, onUserChanged: (id: number) => void): TaskRepo {
  return {
    insert: async (row) => (await db.insert(tasks).values(row).returning())[0]!,

    async findOwned(userId, platform, taskIds) {
      if (taskIds.length === 0) return []
      return db.select().from(tasks).where(and(eqInt(tasks.userId, userId), eq(tasks.platform, platform), inArray(tasks.taskId, [...taskIds]))).orderBy(desc(tasks.id))
    },

    async countRunning(userId) {
      const [row] = await db.select({ n: count() }).from(tasks).where(and(eqInt(tasks.userId, userId), running))
      return row!.n
    },

    async list(filter, offset, limit) {
      const where = filterOf(filter)
      const items = await db.select().from(tasks).where(where).orderBy(desc(tasks.id)).limit(limit).offset(offset)
      const [total] = await db.select({ n: count() }).from(tasks).where(where)
      return { items, total: total!.n }
    },

    async claimDue(owner, now, leaseUntil, limit) {
      return db.transaction(async (tx) => {
        const due = await tx
          .select({ id: tasks.id })
          .from(tasks)
          .where(and(running, lte(tasks.nextPollAt, now), or(eq(tasks.leaseOwner, ''), lt(tasks.leaseUntil, now))))
          .orderBy(tasks.nextPollAt)
          .limit(limit)
          .for('update', { skipLocked: true })
        if (due.length === 0) return []
        return tx.update(tasks).set({ leaseOwner: owner, leaseUntil }).where(inArray(tasks.id, due.map((row) => row.id))).returning()
      })
    },

    async progress(id, owner, patch, nextPollAt) {
      const moved = await db
        .update(tasks)
        .set({ ...patch, nextPollAt, leaseOwner: '', leaseUntil: 0 })
        .where(and(eqInt(tasks.id, id), eq(tasks.leaseOwner, owner), running))
        .returning({ id: tasks.id })
      return moved.length > 0
    },

    async finish(id, owner, patch, refund) {
      const ended = await db.transaction(async (tx) => {
        const held = owner === undefined ? undefined : eq(tasks.leaseOwner, owner)
        const row = first(
          await tx
            .update(tasks)
            .set({ ...patch, leaseOwner: '', leaseUntil: 0, refunded: refund ? 1 : 0 })
            .where(and(eqInt(tasks.id, id), running, held))
            .returning(),
        )
        if (!row) return undefined
        if (refund && refund.amount > 0) {
          await tx.update(users).set({ quota: sql`${users.quota} + ${refund.amount}`, usedQuota: sql`greatest(${users.usedQuota} - ${refund.amount}, 0)` }).where(eq(users.id, row.userId))
          await tx
            .update(tokens)
            .set({ remainQuota: sql`${tokens.remainQuota} + (case when ${tokens.unlimitedQuota} then 0 else ${refund.amount} end)`, usedQuota: sql`greatest(${tokens.usedQuota} - ${refund.amount}, 0)` })
            .where(eqInt(tokens.id, row.tokenId))
        }
        if (refund) await tx.insert(logs).values(refund.log)
        return row
      })
      if (ended && refund && refund.amount > 0) onUserChanged(ended.userId)
      return ended !== undefined
    },
  }
}

function filterOf(f: TaskFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [
    f.platform ? eq(tasks.platform, f.platform) : undefined,
    f.notPlatform ? ne(tasks.platform, f.notPlatform) : undefined,
    f.userId !== undefined ? eqInt(tasks.userId, f.userId) : undefined,
    f.channelId !== undefined ? eqInt(tasks.channelId, f.channelId) : undefined,
    f.taskId ? eq(tasks.taskId, f.taskId) : undefined,
    f.action ? eq(tasks.action, f.action) : undefined,
    f.status ? eq(tasks.status, f.status) : undefined,
    f.start !== undefined ? gte(tasks.submitTime, f.start) : undefined,
    f.end !== undefined ? lte(tasks.submitTime, f.end) : undefined,
  ]
  return and(...parts)
}
