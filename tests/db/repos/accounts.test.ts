/**
 * The users, tokens and quota repositories through the storage interface, per dialect: what the rest of the
 * gateway relies on (guarded balance moves, the first-user race, the key cache and what drops it, reservations
 * both or neither and never below zero, settlements that reach the database with the next metering commit).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { isUniqueViolation, type Repos } from '../../../src/db/repos'
import { DIALECTS } from './dialects'

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(dialect.name, () => {
    let repos: Repos
    let close: () => Promise<void>
    let seq = 0
    beforeAll(async () => void ({ repos, close } = await dialect.open()))
    afterAll(() => close())

    const user = (quota = 0) => repos.users.insert({ username: `user${++seq}`, password: 'hash', quota })
    /** the row as stored, past any cache */
    const stored = async (id: number) => (repos.users.forget(id), await repos.users.findById(id))
    const token = (userId: number, remainQuota = 0, unlimitedQuota = true) =>
      repos.tokens.insert({ userId, name: 'k', keyHash: `hash-${++seq}`.padEnd(64, '0'), keyHint: 'sk-…', remainQuota, unlimitedQuota })

    test('the first user is inserted once, whatever the race', async () => {
      // a database of its own: on the shared one an earlier test's users would leave nothing to race for
      const fresh = await dialect.open()
      try {
        const { repos } = fresh
        expect(await repos.users.count()).toBe(0)
        const tries = await Promise.all(Array.from({ length: 5 }, (_, i) => repos.users.insertFirst({ username: `first${i}`, password: 'x', role: 100 })))
        expect(tries.filter(Boolean)).toHaveLength(1)
        expect(await repos.users.count()).toBe(1)
        expect(await repos.users.rootExists(100)).toBe(true)
      } finally {
        await fresh.close()
      }
    })

    test('a taken username is a unique violation, whatever the dialect says', async () => {
      const row = await user()
      const error = await repos.users.insert({ username: row.username, password: 'x' }).catch((e: unknown) => e)
      expect(isUniqueViolation(error)).toBe(true)
    })

    test('a name that reads like a taken one is a unique violation; keys missing from older rows are filled, the older first', async () => {
      const erin = await repos.users.insert({ username: `Erin${++seq}`, password: 'x' })
      expect(erin.usernameKey).toBe(`erin${seq}`)
      expect((await repos.users.findByUsernameKey(`erin${seq}`))?.id).toBe(erin.id)
      expect(isUniqueViolation(await repos.users.insert({ username: `ERIN${seq}`, password: 'x' }).catch((e: unknown) => e))).toBe(true)
      // rows as they were before the column: no key
      await repos.users.update(erin.id, { usernameKey: null })
      const twin = await repos.users.insert({ username: `erin${seq}`, password: 'x' })
      await repos.users.update(twin.id, { usernameKey: null })
      expect(await repos.users.fillUsernameKeys()).toBe(1)
      expect((await repos.users.findByUsernameKey(`erin${seq}`))?.id).toBe(erin.id)
      expect((await stored(twin.id))?.usernameKey).toBeNull()
    })

    test('quota moves are guarded: a take never drives a balance below zero', async () => {
      const row = await user(100)
      expect((await repos.users.addQuota(row.id, -60))?.quota).toBe(40)
      expect(await repos.users.addQuota(row.id, -60)).toBeUndefined()
      expect((await stored(row.id))?.quota).toBe(40)
      await repos.users.update(row.id, { affQuota: 30 })
      expect(await repos.users.transferAffQuota(row.id, 31)).toBeUndefined()
      expect(await repos.users.transferAffQuota(row.id, 30)).toMatchObject({ quota: 70, affQuota: 0 })
    })

    test('an invited user and the inviter’s reward are written together', async () => {
      const inviter = await user()
      const invitee = await repos.users.insert({ username: `invitee${++seq}`, password: 'x', inviterId: inviter.id }, { id: inviter.id, reward: 25, maxRewarded: 0 })
      expect(invitee.inviterId).toBe(inviter.id)
      expect(await stored(inviter.id)).toMatchObject({ affCount: 1, affQuota: 25, affHistoryQuota: 25 })
      const clash = await repos.users.insert({ username: invitee.username, password: 'x' }, { id: inviter.id, reward: 25, maxRewarded: 0 }).catch((e: unknown) => e)
      expect(isUniqueViolation(clash)).toBe(true)
      expect(await stored(inviter.id)).toMatchObject({ affCount: 1, affQuota: 25 }) // the failed insert credited nothing
    })

    test('the inviter’s reward stops at the cap, even for sign-ups at once; the invitees still register', async () => {
      const inviter = await user()
      const invite = (i: number) => repos.users.insert({ username: `capped${seq}-${i}`, password: 'x', inviterId: inviter.id }, { id: inviter.id, reward: 25, maxRewarded: 3 })
      const invitees = await Promise.all(Array.from({ length: 12 }, (_, i) => invite(i)))
      expect(invitees).toHaveLength(12)
      expect(await stored(inviter.id)).toMatchObject({ affCount: 12, affQuota: 75, affHistoryQuota: 75 })
    })

    test('a password change or revocation bumps the session version', async () => {
      const row = await user()
      expect((await repos.users.setPassword(row.id, 'new-hash'))?.sessionVersion).toBe(row.sessionVersion + 1)
      expect((await repos.users.revokeAllSessions(row.id))?.sessionVersion).toBe(row.sessionVersion + 2)
      expect((await repos.users.setAffCodeIfMissing(row.id, `code${seq}`))?.affCode).toBe(`code${seq}`)
      expect((await repos.users.setAffCodeIfMissing(row.id, 'other'))?.affCode).toBe(`code${seq}`)
    })

    test('a password change or revoking the credentials also drops the access token; revoking sessions alone keeps it', async () => {
      const row = await user()
      const withToken = async () => (await repos.users.update(row.id, { accessToken: `hash${++seq}` }))!.accessToken!
      const hash = await withToken()
      expect((await repos.users.revokeAllSessions(row.id))?.accessToken).toBe(hash)
      expect(await repos.users.findByAccessToken(hash)).toMatchObject({ id: row.id })
      expect(await repos.users.setPassword(row.id, 'another-hash')).toMatchObject({ accessToken: null, sessionVersion: row.sessionVersion + 2 })
      expect(await repos.users.findByAccessToken(hash)).toBeUndefined()
      const next = await withToken()
      const revoked = await repos.users.revokeCredentials(row.id, { status: 2 })
      expect(revoked).toMatchObject({ accessToken: null, status: 2, sessionVersion: row.sessionVersion + 3, password: 'another-hash' })
      expect(await repos.users.findByAccessToken(next)).toBeUndefined()
      expect(await stored(row.id)).toMatchObject({ accessToken: null, status: 2, sessionVersion: row.sessionVersion + 3 })
    })

    test('the users cache: a read fills it, a write refreshes it, forget drops it', async () => {
      const row = await user()
      repos.users.forget(row.id)
      expect(repos.users.cachedById(row.id)).toBeUndefined()
      await repos.users.findById(row.id)
      expect(repos.users.cachedById(row.id)?.id).toBe(row.id)
      await repos.users.update(row.id, { displayName: 'renamed' })
      expect(repos.users.cachedById(row.id)?.displayName).toBe('renamed')
      await repos.users.delete(row.id)
      expect(repos.users.cachedById(row.id)).toBeUndefined()
      expect(await repos.users.findById(row.id)).toBeUndefined()
    })

    test('the key cache: unknown keys are remembered, a new token replaces the miss, an edit drops the entry', async () => {
      const owner = await user()
      const hash = `later-${++seq}`.padEnd(64, '0')
      expect(await repos.tokens.findByKeyHash(hash)).toBeUndefined()
      expect(repos.tokens.cachedByKeyHash(hash)).toBeNull()
      const row = await repos.tokens.insert({ userId: owner.id, name: 'k', keyHash: hash, keyHint: 'sk-…' })
      expect(repos.tokens.cachedByKeyHash(hash)).toBeUndefined()
      expect((await repos.tokens.findByKeyHash(hash))?.id).toBe(row.id)
      expect(repos.tokens.cachedByKeyHash(hash)?.id).toBe(row.id)
      expect(await repos.tokens.update(row.id, owner.id + 1, { name: 'stolen' })).toBeUndefined() // not the owner
      expect((await repos.tokens.update(row.id, owner.id, { name: 'renamed' }))?.name).toBe('renamed')
      expect(repos.tokens.cachedByKeyHash(hash)).toBeUndefined()
      await repos.tokens.findByKeyHash(hash)
      repos.tokens.forgetUser(owner.id)
      expect(repos.tokens.cachedByKeyHash(hash)).toBeUndefined()
      expect(await repos.tokens.setStatusIf(row.id, 1, 3)).toBe(true)
      expect(await repos.tokens.setStatusIf(row.id, 1, 3)).toBe(false)
      expect((await repos.tokens.listOwned(owner.id, 0, 10)).total).toBe(1)
      expect(await repos.tokens.deleteOwned([row.id], owner.id + 1)).toBe(0)
      expect(await repos.tokens.deleteOwned([row.id], owner.id)).toBe(1)
      expect(await repos.tokens.findOwned(row.id, owner.id)).toBeUndefined()
    })

    test('a reservation takes from the token and the user, both or neither, never below zero', async () => {
      const owner = await user(1000)
      const key = await token(owner.id, 300, false)
      expect(await repos.quota.reserve(owner.id, key.id, true, 400)).toEqual({ ok: false, userQuota: 1000, tokenRemain: 300 })
      expect(await repos.quota.reserve(owner.id, key.id, true, 200)).toMatchObject({ ok: true, userQuota: 800, tokenRemain: 100 })
      const concurrent = await Promise.all(Array.from({ length: 10 }, () => repos.quota.reserve(owner.id, key.id, true, 50)))
      expect(concurrent.filter((r) => r.ok)).toHaveLength(2) // the token's 100 left
      // the unlimited token leaves the user's balance alone as the only limit
      const free = await token(owner.id)
      expect((await repos.quota.reserve(owner.id, free.id, false, 700)).ok).toBe(true)
      expect((await repos.quota.reserve(owner.id, free.id, false, 1)).ok).toBe(false)
    })

    test('a running reservation is topped up into its own hold, both or neither, and its one settlement ends all of it', async () => {
      const owner = await user(1000)
      const key = await token(owner.id, 500, false)
      const held = await repos.quota.reserve(owner.id, key.id, true, 100)
      expect(await repos.quota.topUp(held.hold, owner.id, key.id, true, 300)).toMatchObject({ ok: true, userQuota: 600, tokenRemain: 100 })
      // the token's 100 left cannot pay 150: nothing is taken from either
      expect(await repos.quota.topUp(held.hold, owner.id, key.id, true, 150)).toMatchObject({ ok: false, tokenRemain: 100 })
      expect(await stored(owner.id)).toMatchObject({ quota: 600 })
      const settled = await repos.quota.settle({ userId: owner.id, tokenId: key.id, tokenLimited: true, channelId: 0, reserved: 400, actual: 250, now: 1_800_000_000, hold: held.hold })
      expect(settled).toMatchObject({ charged: 250 })
      await repos.commitMetering([])
      await repos.drainMetering()
      expect(await stored(owner.id)).toMatchObject({ quota: 750, usedQuota: 250, requestCount: 1 })
      expect(await repos.tokens.findById(key.id)).toMatchObject({ remainQuota: 250, usedQuota: 250 })
    })

    test('a settlement refunds the rest, counts usage and reaches the database with the next metering commit', async () => {
      const owner = await user(1000)
      const key = await token(owner.id, 500, false)
      await repos.tokens.findByKeyHash(key.keyHash) // as relay auth leaves it
      const first = await repos.quota.reserve(owner.id, key.id, true, 300)
      expect(first.ok).toBe(true)
      // the hold goes back with the settlement, as metering carries it (a dialect without holds gives none)
      const settled = await repos.quota.settle({ userId: owner.id, tokenId: key.id, tokenLimited: true, channelId: 0, reserved: 300, actual: 120, now: 1_800_000_000, hold: first.hold })
      expect(settled).toMatchObject({ charged: 120, user: { quota: 880, usedQuota: 120, requestCount: 1 }, token: { remainQuota: 380, usedQuota: 120 } })
      // written with the next log batch (PostgreSQL queues settlements for it; SQLite's ledger writes behind too)
      await repos.commitMetering([])
      // more than reserved: only as far as the balances reach
      const second = await repos.quota.reserve(owner.id, key.id, true, 100)
      expect(second.ok).toBe(true)
      const short = await repos.quota.settle({ userId: owner.id, tokenId: key.id, tokenLimited: true, channelId: 0, reserved: 100, actual: 10_000, now: 1_800_000_001, hold: second.hold })
      expect(short.charged).toBe(100 + 380 - 100) // the token's remainder was the smaller balance
      await repos.commitMetering([])
      await repos.drainMetering()
      expect(await stored(owner.id)).toMatchObject({ quota: 1000 - 120 - 380, usedQuota: 500, requestCount: 2 })
      expect(await repos.tokens.findById(key.id)).toMatchObject({ remainQuota: 0, usedQuota: 500, accessedTime: 1_800_000_001 })
    })
  })
}
