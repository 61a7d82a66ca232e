import { afterAll, beforeAll, expect, test } from 'bun:test'
import { loadRevocationList, PRUNE_INTERVAL_SECONDS } from '../../../src/services/sessions/revocation-list'
import { startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

test('the pruning job deletes the revocations whose JWT has expired; a logout an interval later forgets them in memory', async () => {
  const repo = app.deps.repos.revokedSessions
  let now = 1_000_000
  const list = await loadRevocationList(repo, () => now)
  await list.revoke('short', now + 60)
  await list.revoke('long', now + 10 * PRUNE_INTERVAL_SECONDS)
  expect((await repo.unexpired(0)).map((row) => row.id).sort()).toEqual(['long', 'short'])

  now += 120 // 'short' has expired, but the last forgetting was moments ago
  await list.revoke('third', now + 10 * PRUNE_INTERVAL_SECONDS)
  expect(list.size).toBe(3)
  expect(await repo.unexpired(0)).toHaveLength(3) // a logout deletes no rows: that is the job's

  now += PRUNE_INTERVAL_SECONDS
  await list.revoke('fourth', now + 10 * PRUNE_INTERVAL_SECONDS)
  expect(list.isRevoked('short')).toBe(false)
  expect(list.isRevoked('long')).toBe(true)
  expect(list.size).toBe(3)
  expect(await repo.unexpired(0)).toHaveLength(4)

  expect(await list.pruneExpired()).toBe(1)
  expect((await repo.unexpired(0)).map((row) => row.id).sort()).toEqual(['fourth', 'long', 'third'])
})

test('a revocation another node stored is remembered while its JWT lives; a reload reads the stored ones', async () => {
  const repo = app.deps.repos.revokedSessions
  const now = 2_000_000
  const list = await loadRevocationList(repo, () => now)
  list.remember('elsewhere', now + 60)
  list.remember('already-expired', now - 1)
  expect(list.isRevoked('elsewhere')).toBe(true)
  expect(list.isRevoked('already-expired')).toBe(false)
  await repo.insert('stored-elsewhere', now + 60)
  expect(list.isRevoked('stored-elsewhere')).toBe(false)
  await list.reload()
  expect(list.isRevoked('stored-elsewhere')).toBe(true)
})

test('checking a session reads memory: the revocations are loaded once, at start', async () => {
  const repo = app.deps.repos.revokedSessions
  let loads = 0
  const counting = { ...repo, unexpired: (now: number) => (loads++, repo.unexpired(now)) }
  const list = await loadRevocationList(counting)
  await list.revoke('checked-often', Math.floor(Date.now() / 1000) + 60)
  for (let i = 0; i < 100; i++) expect(list.isRevoked('checked-often')).toBe(true)
  expect(loads).toBe(1)
})
