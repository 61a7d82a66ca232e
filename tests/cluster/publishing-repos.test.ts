/**
 * The one table of which write tells the other nodes what (src/cluster/publishing-repos.ts), on each dialect's
 * repositories: a write that changed something another node caches publishes its ids once it succeeded; a write
 * that changed nothing, a failed one and every read publish nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { publishingRepos } from '../../src/cluster/publishing-repos'
import type { NewChannel, NewLog, Repos } from '../../src/db/repos'
import { DIALECTS } from '../db/repos/dialects'

const channel = (name: string, tag = ''): NewChannel => ({ type: 1, name, key: 'sealed', models: 'm', group: 'default', tag })

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(dialect.name, () => {
    let opened: Awaited<ReturnType<typeof dialect.open>>
    let repos: Repos
    let told: string[] = []
    beforeAll(async () => {
      opened = await dialect.open()
      repos = publishingRepos(opened.repos, async (topic, payload) => void told.push(`${topic} ${payload}`))
    })
    afterAll(() => opened.close())
    beforeEach(() => void (told = []))

    test('users: each write names the user; a failed one or a read names nobody', async () => {
      const inviter = await repos.users.insert({ username: 'inviter', password: 'x', quota: 5 })
      expect(told).toEqual([]) // a new row: nobody has it cached
      const user = await repos.users.insert({ username: 'invited', password: 'x' }, { id: inviter.id, reward: 10, maxRewarded: 0 })
      expect(told).toEqual([`users ${inviter.id}`])
      told = []
      await repos.users.update(user.id, { displayName: 'Invited' })
      await repos.users.addQuota(user.id, 7)
      await repos.users.addQuota(user.id, -1_000_000) // more than the balance: refused, nothing changed
      await repos.users.transferAffQuota(inviter.id, 10)
      await repos.users.revokeAllSessions(user.id)
      await repos.users.revokeCredentials(user.id, { status: 2 })
      await repos.users.setPassword(user.id, 'y')
      await repos.users.findById(user.id)
      await repos.users.list(0, 10)
      expect(told).toEqual([`users ${user.id}`, `users ${user.id}`, `users ${inviter.id}`, `users ${user.id}`, `users ${user.id}`, `users ${user.id}`])
      told = []
      expect(await repos.users.delete(user.id)).toBe(true)
      expect(await repos.users.delete(user.id)).toBe(false)
      expect(told).toEqual([`users ${user.id}`])
    })

    test('tokens: update, status and delete name the token; a new one and a miss name nothing', async () => {
      const owner = await repos.users.insert({ username: 'owner', password: 'x' })
      const token = await repos.tokens.insert({ userId: owner.id, name: 't', keyHash: 'a'.repeat(64), keyHint: 'aaaa', status: 1 })
      expect(told).toEqual([])
      await repos.tokens.update(token.id, owner.id, { name: 'renamed' })
      await repos.tokens.update(token.id, owner.id + 1, { name: 'not theirs' })
      expect(await repos.tokens.setStatusIf(token.id, 1, 2)).toBe(true)
      expect(await repos.tokens.setStatusIf(token.id, 1, 2)).toBe(false)
      expect(await repos.tokens.deleteOwned([token.id], owner.id)).toBe(1)
      expect(await repos.tokens.deleteOwned([token.id], owner.id)).toBe(0)
      expect(told).toEqual([`tokens ${token.id}`, `tokens ${token.id}`, `tokens ${token.id}`])
    })

    test('channels: the ids each write touched, a new one included; a test result names nothing', async () => {
      const [a, b] = await repos.channels.insert([channel('a', 'x'), channel('b', 'x')])
      expect(told).toEqual([`channels ${a!.id},${b!.id}`])
      told = []
      await repos.channels.update(a!.id, { weight: 3 })
      await repos.channels.update(a!.id, {}) // a read
      await repos.channels.updateMany([b!.id], { priority: 2 })
      await repos.channels.updateByTag('x', { weight: 1 })
      await repos.channels.setStatus([a!.id, b!.id], 1) // already enabled: no row changed
      await repos.channels.setStatus([a!.id], 2)
      await repos.channels.setStatusByTag('x', 2)
      await repos.channels.recordTest(a!.id, 120, 1, '')
      expect(told).toEqual([`channels ${a!.id}`, `channels ${b!.id}`, `channels ${a!.id},${b!.id}`, `channels ${a!.id}`, `channels ${b!.id}`])
      told = []
      expect(await repos.channels.delete([a!.id, 999_999])).toEqual([a!.id])
      expect(told).toEqual([`channels ${a!.id}`])
    })

    test('options, revoked sessions and a redemption', async () => {
      await repos.options.set('SystemName', 'x')
      await repos.options.delete('SystemName')
      await repos.revokedSessions.insert('session-1', 2_000_000_000)
      await repos.revokedSessions.deleteExpired(0)
      const user = await repos.users.insert({ username: 'redeemer', password: 'x' })
      await repos.redemptions.insertMany([{ name: 'r', keyHash: 'c'.repeat(64), keyHint: 'cccc', quota: 100 }])
      const log = (): NewLog => ({ createdAt: 1, type: 1, userId: user.id, quota: 100 })
      expect(await repos.redemptions.redeem('c'.repeat(64), user.id, 1, log)).toBeDefined()
      expect(await repos.redemptions.redeem('c'.repeat(64), user.id, 1, log)).toBeUndefined()
      expect(told).toEqual(['options SystemName', 'options SystemName', 'sessions 2000000000 session-1', `users ${user.id}`])
    })

    test('a granted plan names its holder (nodes that remember them as holding none forget it), and so does its end (the group it raised may have gone back)', async () => {
      const user = await repos.users.insert({ username: 'holder', password: 'x' })
      told = []
      const plan = await repos.subscriptions.insertPlan({ title: 'P', priceCents: 0, durationUnit: 'day', durationValue: 1, totalAmount: 0 })
      const held = await repos.subscriptions.grant({ userId: user.id, planId: plan.id, amountTotal: 0, startTime: 1, endTime: 2_000_000_000, status: 'active', source: 'admin' })
      await repos.subscriptions.cancel(held.id, 2)
      expect(told).toEqual([`users ${user.id}`, `users ${user.id}`])
      await repos.subscriptions.cancel(held.id, 3) // already cancelled: nothing changed, nothing told
      expect(told).toEqual([`users ${user.id}`, `users ${user.id}`])
    })

    test("a paid plan order grants its plan through the wrapper too (the grant was dropped on the way before) and names the buyer", async () => {
      const user = await repos.users.insert({ username: 'buyer', password: 'x' })
      const plan = await repos.subscriptions.insertPlan({ title: 'Q', priceCents: 100, durationUnit: 'day', durationValue: 1, totalAmount: 0 })
      await repos.topups.insert({ userId: user.id, tradeNo: 'SUBWRAP1', amount: 0, quota: 0, moneyCents: 100, currency: 'USD', paymentMethod: 'stripe', paymentProvider: 'stripe', status: 'pending', planId: plan.id, createTime: 1 })
      told = []
      const log = (): NewLog => ({ createdAt: 1, type: 1, userId: user.id, quota: 0 })
      await repos.topups.complete('SUBWRAP1', {}, 2, log, (row) => ({ userId: row.userId, planId: plan.id, amountTotal: 0, startTime: 2, endTime: 2_000_000_000, status: 'active', source: 'order' }))
      expect((await repos.subscriptions.listOfUser(user.id)).map((h) => h.planId)).toEqual([plan.id])
      expect(told).toEqual([`users ${user.id}`])
    })

    test('the rest of Repos is reached as it was', async () => {
      expect(repos.dialect).toBe(opened.repos.dialect)
      expect(repos.quota).toBe(opened.repos.quota)
      expect(repos.logs).toBe(opened.repos.logs)
      expect(await repos.check()).toEqual(await opened.repos.check())
      expect(repos.users.cachedById).toBe(opened.repos.users.cachedById)
      expect(repos.tokens.cachedByKeyHash).toBe(opened.repos.tokens.cachedByKeyHash)
    })
  })
}
