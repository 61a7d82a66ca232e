/**
 * Channels, redemption codes, options and revoked sessions through the storage interface, per dialect: the
 * routing rows follow every channel write, a code is spent exactly once, options and revocations round-trip.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ChannelStatus, LogType, RedemptionStatus, type Repos } from '../../../src/db/repos'
import { DIALECTS } from './dialects'

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(dialect.name, () => {
    let repos: Repos
    let close: () => Promise<void>
    beforeAll(async () => void ({ repos, close } = await dialect.open()))
    afterAll(() => close())

    const channel = (name: string, extra: Record<string, unknown> = {}) => ({ type: 1, name, key: 'sealed', models: 'm1, m2', group: 'default,vip', ...extra })

    test('every channel write rewrites its abilities: one per group and model, enabled with the channel', async () => {
      const [a, b] = await repos.channels.insert([channel('a', { tag: 't' }), channel('b', { tag: 't', models: 'm1' })])
      expect((await repos.channels.abilities(a!.id)).map((x) => `${x.group}/${x.model}/${x.enabled}`).sort()).toEqual([
        'default/m1/true', 'default/m2/true', 'vip/m1/true', 'vip/m2/true',
      ])
      expect(await repos.channels.setStatus([a!.id, b!.id], ChannelStatus.manuallyDisabled)).toHaveLength(2)
      expect(await repos.channels.setStatus([a!.id], ChannelStatus.manuallyDisabled)).toHaveLength(0) // already so
      expect((await repos.channels.abilities(b!.id)).every((x) => !x.enabled)).toBe(true)
      expect(await repos.channels.setStatusByTag('t', ChannelStatus.enabled)).toHaveLength(2)
      await repos.channels.update(a!.id, { models: 'm3', group: 'default' })
      expect((await repos.channels.abilities(a!.id)).map((x) => x.model)).toEqual(['m3'])
      expect((await repos.channels.updateByTag('t', { priority: 5 })).map((r) => r.priority)).toEqual([5, 5])
      expect((await repos.channels.updateMany([b!.id], { weight: 3 }))[0]?.weight).toBe(3)
      await repos.channels.recordTest(b!.id, 123, 1_800_000_000, '{"code":"upstream_auth"}')
      expect(await repos.channels.findById(b!.id)).toMatchObject({ responseTime: 123, testTime: 1_800_000_000, testError: '{"code":"upstream_auth"}', priority: 5 })
      expect(await repos.channels.tags()).toEqual(['t'])
      expect((await repos.channels.list({ model: 'm1' }, 0, 10)).items.map((r) => r.name)).toEqual(['b'])
      expect((await repos.channels.list({ keyword: 'a', tag: 't' }, 0, 10)).total).toBe(1)
      expect(await repos.channels.delete([a!.id, b!.id, 999_999])).toEqual([a!.id, b!.id])
      expect(await repos.channels.abilities(a!.id)).toEqual([])
      expect(await repos.channels.all()).toEqual([])
    })

    test('a code is spent once: the credit and the top-up row go with it, in one transaction', async () => {
      const payer = await repos.users.insert({ username: 'redeemer', password: 'x', quota: 10 })
      const [code] = await repos.redemptions.insertMany([{ userId: payer.id, name: 'gift', keyHash: 'code-hash', keyHint: 'abcd', quota: 500 }])
      const logOf = (r: { id: number; quota: number }) => ({ type: LogType.topup, userId: payer.id, username: payer.username, quota: r.quota, content: `code ${r.id}` })
      const tries = await Promise.all(Array.from({ length: 6 }, () => repos.redemptions.redeem('code-hash', payer.id, 1_800_000_000, logOf)))
      expect(tries.filter(Boolean)).toHaveLength(1)
      expect(await repos.redemptions.redeem('code-hash', payer.id, 1_800_000_000, logOf)).toBeUndefined()
      repos.users.forget(payer.id)
      expect((await repos.users.findById(payer.id))?.quota).toBe(510)
      expect(await repos.logs.count({ type: LogType.topup, userId: payer.id })).toBe(1)
      expect(await repos.redemptions.findById(code!.id)).toMatchObject({ status: RedemptionStatus.used, usedUserId: payer.id })
      expect(await repos.redemptions.update(code!.id, {})).toMatchObject({ id: code!.id })
      const [spare] = await repos.redemptions.insertMany([{ userId: payer.id, name: 'spare', keyHash: 'spare-hash', keyHint: 'efgh', quota: 1 }])
      expect((await repos.redemptions.list(0, 10, 'spare')).items.map((r) => r.id)).toEqual([spare!.id])
      expect(await repos.redemptions.deleteInvalid(1_800_000_000)).toBe(1) // the used one
      expect(await repos.redemptions.delete(spare!.id)).toBe(true)
      expect(await repos.redemptions.delete(spare!.id)).toBe(false)
    })

    test('options are rows of text: set replaces, delete removes', async () => {
      await repos.options.set('SystemName', 'one')
      await repos.options.set('SystemName', 'two')
      expect((await repos.options.all()).SystemName).toBe('two')
      await repos.options.delete('SystemName')
      expect((await repos.options.all()).SystemName).toBeUndefined()
    })

    test('revoked sessions: revoking twice is one row; expired ones are pruned', async () => {
      await repos.revokedSessions.insert('s1', 100)
      await repos.revokedSessions.insert('s1', 100)
      await repos.revokedSessions.insert('s2', 300)
      expect((await repos.revokedSessions.unexpired(50)).map((r) => r.id).sort()).toEqual(['s1', 's2'])
      expect(await repos.revokedSessions.deleteExpired(200)).toBe(1)
      expect((await repos.revokedSessions.unexpired(0)).map((r) => r.id)).toEqual(['s2'])
    })
  })
}
