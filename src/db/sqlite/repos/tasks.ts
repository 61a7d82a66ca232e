import { and, count, desc, eq, gte, inArray, lte, ne, notInArray, or, lt, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { logs, tasks, tokens, users } from '../schema'
import { FINAL_TASK_STATUSES, type TaskFilter, type TaskRepo } from '../../repos/tasks'

const running = notInArray(tasks.status, [...FINAL_TASK_STATUSES])

/** Asynchronous tasks on SQLite (one process owns the file: the lease columns still keep one poll per task). */
export function createTaskRepo(db: Db, onUserChanged: (id: number) => void): TaskRepo {
  return {
    insert: async (row) => db.insert(tasks).values(row).returning().get(),

    async findOwned(userId, platform, taskIds) {
      if (taskIds.length === 0) return []
      return db.select().from(tasks).where(and(eq(tasks.userId, userId), eq(tasks.platform, platform), inArray(tasks.taskId, [...taskIds]))).orderBy(desc(tasks.id)).all()
    },

    countRunning: async (userId) => db.select({ n: count() }).from(tasks).where(and(eq(tasks.userId, userId), running)).get()!.n,

    async list(filter, offset, limit) {
      const where = filterOf(filter)
      const items = db.select().from(tasks).where(where).orderBy(desc(tasks.id)).limit(limit).offset(offset).all()
      const total = db.select({ n: count() }).from(tasks).where(where).get()!.n
      return { items, total }
    },

    async claimDue(owner, now, leaseUntil, limit) {
      return db.transaction((tx) => {
        const due = tx
          .select({ id: tasks.id })
          .from(tasks)
          .where(and(running, lte(tasks.nextPollAt, now), or(eq(tasks.leaseOwner, ''), lt(tasks.leaseUntil, now))))
          .orderBy(tasks.nextPollAt)
          .limit(limit)
          .all()
          .map((row) => row.id)
        if (due.length === 0) return []
        return tx.update(tasks).set({ leaseOwner: owner, leaseUntil }).where(inArray(tasks.id, due)).returning().all()
      })
    },

    async progress(id, owner, patch, nextPollAt) {
      const moved = db
        .update(tasks)
        .set({ ...patch, nextPollAt, leaseOwner: '', leaseUntil: 0 })
        .where(and(eq(tasks.id, id), eq(tasks.leaseOwner, owner), running))
        .returning({ id: tasks.id })
        .all()
      return moved.length > 0
    },

    async finish(id, owner, patch, refund) {
      const ended = db.transaction((tx) => {
        const held = owner === undefined ? undefined : eq(tasks.leaseOwner, owner)
        const row = tx
          .update(tasks)
          .set({ ...patch, leaseOwner: '', leaseUntil: 0, refunded: refund ? 1 : 0 })
          .where(and(eq(tasks.id, id), running, held))
          .returning()
          .get()
        if (!row) return undefined
        if (refund && refund.amount > 0) {
          tx.update(users).set({ quota: sql`${users.quota} + ${refund.amount}`, usedQuota: sql`max(${users.usedQuota} - ${refund.amount}, 0)` }).where(eq(users.id, row.userId)).run()
          tx.update(tokens)
            .set({ remainQuota: sql`${tokens.remainQuota} + (case when ${tokens.unlimitedQuota} then 0 else ${refund.amount} end)`, usedQuota: sql`max(${tokens.usedQuota} - ${refund.amount}, 0)` })
            .where(eq(tokens.id, row.tokenId))
            .run()
        }
        if (refund) tx.insert(logs).values(refund.log).run()
        return row
      })
      // the cached balances are behind now: the next read loads them
      if (ended && refund && refund.amount > 0) onUserChanged(ended.userId)
      return ended !== undefined
    },
  }
}

function filterOf(f: TaskFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [
    f.platform ? eq(tasks.platform, f.platform) : undefined,
    f.notPlatform ? ne(tasks.platform, f.notPlatform) : undefined,
    f.userId !== undefined ? eq(tasks.userId, f.userId) : undefined,
    f.channelId !== undefined ? eq(tasks.channelId, f.channelId) : undefined,
    f.taskId ? eq(tasks.taskId, f.taskId) : undefined,
    f.action ? eq(tasks.action, f.action) : undefined,
    f.status ? eq(tasks.status, f.status) : undefined,
    f.start !== undefined ? gte(tasks.submitTime, f.start) : undefined,
    f.end !== undefined ? lte(tasks.submitTime, f.end) : undefined,
  ]
  return and(...parts)
}
