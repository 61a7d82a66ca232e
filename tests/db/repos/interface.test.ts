/**
 * The storage seam's interface, enumerated: each dialect's factory must give every repository every method of
 * its interface, nothing more (so no caller can come to rely on one dialect's extras), every method that reaches
 * the database async (a rejection, never a synchronous throw), and only the memory-only ones synchronous.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RepoSet, Repos } from '../../../src/db/repos'
import { DIALECTS } from './dialects'

/** Every method of every repository interface (the type below fails the typecheck when one is missing here). */
const METHODS = {
  users: [
    'cachedById', 'findById', 'forget', 'forgetAll', 'findByUsername', 'findByUsernameKey', 'fillUsernameKeys', 'findByEmail', 'findByAffCode', 'findByAccessToken', 'count', 'rootExists', 'list', 'insert',
    'insertFirst', 'update', 'delete', 'addQuota', 'transferAffQuota', 'revokeAllSessions', 'revokeCredentials', 'setPassword', 'setAffCodeIfMissing',
  ],
  tokens: ['cachedByKeyHash', 'findByKeyHash', 'liveById', 'forget', 'forgetUser', 'forgetAll', 'findById', 'findOwned', 'listOwned', 'insert', 'update', 'deleteOwned', 'setStatusIf'],
  options: ['all', 'set', 'delete'],
  channels: ['all', 'findById', 'list', 'tags', 'abilities', 'insert', 'update', 'updateMany', 'updateByTag', 'setStatus', 'setStatusByTag', 'delete', 'recordTest', 'recordBalance'],
  logs: ['insertMany', 'list', 'listBefore', 'stat', 'count', 'hourly', 'cacheReads', 'channelStats', 'deleteBefore', 'freePages', 'compact', 'optimize'],
  quota: ['reserve', 'topUp', 'settle', 'holdToken', 'settleElsewhere', 'onDirty', 'hasPending'],
  redemptions: ['insertMany', 'findById', 'list', 'update', 'delete', 'deleteInvalid', 'redeem'],
  revokedSessions: ['unexpired', 'insert', 'deleteExpired'],
  secondFactors: [
    'totp', 'startTotp', 'enableTotp', 'takeStep', 'deleteTotp', 'unusedBackupCodes', 'useBackupCode', 'replaceBackupCodes', 'passkeys', 'passkeyByCredentialId', 'insertPasskey',
    'touchPasskey', 'deletePasskeys', 'putChallenge', 'peekChallenge', 'takeChallenge', 'deleteExpiredChallenges',
  ],
  emailCodes: ['issue', 'takeAttempt', 'consume'],
  topups: ['insert', 'findByTradeNo', 'list', 'countPendingSince', 'complete', 'settleUnpaid', 'setProviderRef'],
  bindings: ['findUserId', 'listByUser', 'bind', 'emailOwner', 'unbind'],
  subscriptions: ['listPlans', 'findPlan', 'insertPlan', 'updatePlan', 'grant', 'findById', 'listOfUser', 'countOfPlan', 'cancel', 'expireUpgrades', 'spendable', 'preference', 'setPreference', 'take', 'settle', 'overdraw', 'forgetHolder', 'holdsNoPlan'],
  customOAuth: ['list', 'findById', 'findBySlug', 'insert', 'update', 'delete'],
  tasks: ['insert', 'findOwned', 'countRunning', 'list', 'claimDue', 'progress', 'finish'],
  notifySettings: ['get', 'put', 'recipientsAtRole'],
} as const satisfies { [K in keyof RepoSet]: readonly (keyof RepoSet[K])[] }

type Missing = { [K in keyof RepoSet]: Exclude<keyof RepoSet[K], (typeof METHODS)[K][number]> }[keyof RepoSet]
// The guard that METHODS is whole is this line under `bun run typecheck` (.ci/run): it does not compile while an
// interface method is missing above. An interface does not exist at run time, so `bun test` cannot check it; the
// per-dialect tests below check every implementation against METHODS, both ways.
const complete: [Missing] extends [never] ? true : { missing: Missing } = true
void complete

/** The methods that answer from memory alone, synchronously; every other one returns a promise. */
const SYNC = new Set(['users.cachedById', 'users.forget', 'users.forgetAll', 'tokens.cachedByKeyHash', 'tokens.forget', 'tokens.forgetUser', 'tokens.forgetAll', 'quota.onDirty', 'quota.hasPending', 'subscriptions.forgetHolder', 'subscriptions.holdsNoPlan'])

/** What `Repos` adds to the repositories. */
const STORAGE = ['commitMetering', 'drainMetering', 'check', 'close'] as const satisfies readonly Exclude<keyof Repos, keyof RepoSet | 'dialect'>[]

const isAsync = (fn: unknown) => typeof fn === 'function' && fn.constructor.name === 'AsyncFunction'

test('every method named synchronous is one of the interface’s methods', () => {
  for (const name of SYNC) {
    const [repo, method] = name.split('.') as [keyof typeof METHODS, string]
    expect((METHODS[repo] as readonly string[]).includes(method)).toBe(true)
  }
})

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(dialect.name, () => {
    let opened: Awaited<ReturnType<typeof dialect.open>>
    beforeAll(async () => void (opened = await dialect.open()))
    afterAll(() => opened.close())

    test('the factory gives every repository exactly its interface’s methods', () => {
      for (const repo of Object.keys(METHODS) as (keyof typeof METHODS)[]) {
        const impl = opened.repos[repo] as unknown as Record<string, unknown>
        const missing = METHODS[repo].filter((m) => typeof impl[m] !== 'function')
        expect({ repo, missing }).toEqual({ repo, missing: [] })
        const extra = Object.keys(impl).filter((key) => !(METHODS[repo] as readonly string[]).includes(key))
        expect({ repo, extra }).toEqual({ repo, extra: [] })
      }
      for (const m of STORAGE) expect([m, typeof opened.repos[m]]).toEqual([m, 'function'])
      expect(opened.repos.dialect).toBe(dialect.name as Repos['dialect'])
    })

    test('what reaches the database is async; what stays in memory is synchronous', () => {
      for (const repo of Object.keys(METHODS) as (keyof typeof METHODS)[]) {
        const impl = opened.repos[repo] as unknown as Record<string, unknown>
        for (const m of METHODS[repo]) {
          const sync = SYNC.has(`${repo}.${m}`)
          expect([`${repo}.${m}`, isAsync(impl[m])]).toEqual([`${repo}.${m}`, !sync])
        }
      }
      for (const m of STORAGE) expect([m, isAsync(opened.repos[m])]).toEqual([m, true])
    })

    test('the memory-only reads answer at once, before anything was loaded', () => {
      expect(opened.repos.users.cachedById(1)).toBeUndefined()
      expect(opened.repos.tokens.cachedByKeyHash('f'.repeat(64))).toBeUndefined()
    })

    test('readiness: the database answers and every migration is applied', async () => {
      expect(await opened.repos.check()).toEqual({ database: 'ok', pendingMigrations: [] })
    })
  })
}
