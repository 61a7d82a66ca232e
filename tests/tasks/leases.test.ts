import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LogType } from '../../src/db/repos/logs'
import { addUser } from '../helpers/accounts'
import { appDialects, startTestApp, type TestApp } from '../helpers/test-app'

// The task repository's leases, on each dialect: a claimed task is nobody else's until its lease lapses; a node
// that lost its lease can no longer move the task; a task ends, and is refunded, once.
for (const dialect of appDialects()) {
  describe.skipIf(dialect.skip)(`task leases on ${dialect.name}`, () => {
    let app: TestApp
    let userId = 0
    beforeAll(async () => {
      app = await startTestApp(await dialect.env())
      app.deps.taskPoller.stop()
      userId = (await addUser(app, { username: 'tasker', quota: 1000 })).id
    }, 60_000) // a hang detector: the worker's first PostgreSQL start and a full migration, past 20 s twice on a loaded machine
    afterAll(async () => {
      await app?.stop()
    })

    test('claimed by one node, taken by another only after the lease lapsed; the loser cannot move it', async () => {
      const tasks = app.deps.repos.tasks
      const task = await tasks.insert({ taskId: 'lease-1', platform: 'midjourney', userId, quota: 100, nextPollAt: 1000 })
      expect((await tasks.claimDue('A', 2000, 5000, 10)).map((t) => t.id)).toEqual([task.id])
      expect(await tasks.claimDue('B', 4000, 7000, 10)).toEqual([])
      expect((await tasks.claimDue('B', 5001, 8000, 10)).map((t) => t.id)).toEqual([task.id])
      expect(await tasks.progress(task.id, 'A', { progress: '50%' }, 9000)).toBe(false)
      expect(await tasks.finish(task.id, 'A', { status: 'SUCCESS' })).toBe(false)
      expect(await tasks.progress(task.id, 'B', { progress: '50%' }, 9000)).toBe(true)
      // given back with its next poll: not due before it
      expect(await tasks.claimDue('A', 8999, 12_000, 10)).toEqual([])
      expect((await tasks.claimDue('A', 9000, 12_000, 10)).map((t) => t.progress)).toEqual(['50%'])
    })

    test('a failed task is refunded once, with its log row, in the transaction that ends it', async () => {
      const tasks = app.deps.repos.tasks
      const task = await tasks.insert({ taskId: 'refund-1', platform: 'suno', userId, quota: 250, nextPollAt: 0 })
      const refund = { amount: 250, log: { type: LogType.system, userId, content: 'task refund-1 failed: refunded 250', createdAt: 1 } }
      expect(await tasks.finish(task.id, undefined, { status: 'FAILURE' }, refund)).toBe(true)
      expect(await tasks.finish(task.id, undefined, { status: 'FAILURE' }, refund)).toBe(false)
      expect((await app.deps.repos.users.findById(userId))!.quota).toBe(1250)
      const rows = (await app.deps.repos.logs.list({ type: LogType.system, userId }, 0, 10)).items
      expect(rows.map((r) => r.content)).toEqual(['task refund-1 failed: refunded 250'])
      expect((await tasks.list({ taskId: 'refund-1' }, 0, 1)).items[0]).toMatchObject({ status: 'FAILURE', refunded: 1, leaseOwner: '' })
    })
  })
}
