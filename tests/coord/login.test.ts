import { expect, test } from 'bun:test'
import { loginError } from '../../src/coord/limit-errors'
import { createLocalLogin } from '../../src/coord/local-login'
import type { LoginKey, LoginResult } from '../../src/coord/types'
import { forEachBackend, until } from './backends'

const from = (account: string, address: string, perAccount = 2, perAddress = 5): LoginKey[] => [
  { key: `acct:${account}|${address}`, free: perAccount },
  { key: `addr:${address}`, free: perAddress },
]
const admitted = (r: LoginResult) => {
  if (!r.ok) throw new Error(`refused for ${r.retryAfter} s, expected admitted`)
  return r.ticket
}
const refusedFor = (r: LoginResult): number => {
  if (r.ok) throw new Error('admitted, expected a refusal')
  return r.retryAfter
}

forEachBackend((backend) => {
  const backoff = { maxSeconds: 60, forgetSeconds: 60 }

  test('login: an account from one address waits 1 s, then 2 s, across nodes; another address is not held up', async () => {
    const [a, b, c] = await backend.nodes(3)
    admitted(await a!.loginAttempt(from('root', '10.0.0.66'), backoff))
    admitted(await b!.loginAttempt(from('root', '10.0.0.66'), backoff))
    const first = refusedFor(await c!.loginAttempt(from('root', '10.0.0.66'), backoff))
    expect(first).toBeGreaterThan(0.5)
    expect(first).toBeLessThanOrEqual(1)
    expect(loginError({ ok: false, retryAfter: first }).headers!['retry-after']).toBe('1')
    // the owner, from their own address, is not affected by the stranger's failures
    admitted(await a!.loginAttempt(from('root', '10.0.0.1'), backoff))
    await until(async () => (await b!.loginAttempt(from('root', '10.0.0.66'), backoff)).ok, 2500, 'first wait over')
    const second = refusedFor(await c!.loginAttempt(from('root', '10.0.0.66'), backoff))
    expect(second).toBeGreaterThan(1.5)
    expect(second).toBeLessThanOrEqual(2)
  })

  test('login: one address across many accounts meets its own cap', async () => {
    const [a, b] = await backend.nodes(2)
    for (let i = 0; i < 5; i++) admitted(await [a, b][i % 2]!.loginAttempt(from(`user${i}`, '10.9.9.9'), backoff))
    expect(refusedFor(await a!.loginAttempt(from('user99', '10.9.9.9'), backoff))).toBeLessThanOrEqual(1)
    admitted(await b!.loginAttempt(from('user99', '10.9.9.8'), backoff))
  })

  test('login: a success starts the account over and gives the address its attempt back', async () => {
    const [a, b] = await backend.nodes(2)
    const keys = from('alice', '10.1.1.1', 2, 3)
    admitted(await a!.loginAttempt(keys, backoff))
    const ticket = admitted(await a!.loginAttempt(keys, backoff))
    refusedFor(await b!.loginAttempt(keys, backoff))
    await b!.loginSucceeded(ticket)
    // the account starts over (2 free again); the address has 1 attempt counted of its 3
    admitted(await b!.loginAttempt(keys, backoff))
    admitted(await a!.loginAttempt(keys, backoff))
    expect(refusedFor(await a!.loginAttempt(keys, backoff))).toBeLessThanOrEqual(1)
    // the address, not the account, refused that one
    admitted(await a!.loginAttempt(from('alice', '10.1.1.2', 2, 3), backoff))
  })

  test('window: events per key counted across nodes, refused at the limit until the window ends', async () => {
    const [a, b] = await backend.nodes(2)
    expect(await a!.windowHit(['signup:10.0.0.1'], 2, 1)).toEqual({ ok: true })
    expect(await b!.windowHit(['signup:10.0.0.1'], 2, 1)).toEqual({ ok: true })
    const refused = await a!.windowHit(['signup:10.0.0.1'], 2, 1)
    if (refused.ok) throw new Error('a third event was counted')
    expect(refused.retryAfter).toBeGreaterThan(0.5)
    expect(refused.retryAfter).toBeLessThanOrEqual(1)
    expect(await b!.windowHit(['signup:10.0.0.2'], 2, 1)).toEqual({ ok: true })
    await until(async () => (await b!.windowHit(['signup:10.0.0.1'], 2, 1)).ok, 1500, 'window over')
  })
})

test('local login counters: the wait doubles up to the ceiling, is forgotten after a quiet spell, and the map stays bounded', () => {
  let now = 1_000_000
  const limiter = createLocalLogin(() => now)
  const backoff = { maxSeconds: 8, forgetSeconds: 30 }
  const keys = [{ key: 'acct:x', free: 1 }]
  const waits: number[] = []
  for (let i = 0; i < 7; i++) {
    const result = limiter.attempt(keys, backoff)
    if (!result.ok) throw new Error('the wait was over')
    const refused = limiter.attempt(keys, backoff)
    waits.push(refused.ok ? 0 : refused.retryAfter)
    now += waits.at(-1)! * 1000
  }
  expect(waits).toEqual([1, 2, 4, 8, 8, 8, 8])
  now += 30_001
  // forgotten: the free attempt again, then 1 s
  expect(limiter.attempt(keys, backoff).ok).toBe(true)
  expect(limiter.attempt(keys, backoff)).toEqual({ ok: false, retryAfter: 1 })

  for (let i = 0; i < 12_000; i++) limiter.attempt([{ key: `addr:${i}`, free: 5 }], backoff)
  expect(limiter.size()).toBeLessThanOrEqual(10_000)
})

test('the refusal says the wait in words, in the header and in the data', () => {
  const error = loginError({ ok: false, retryAfter: 841.2 })
  expect(error.status).toBe(429)
  expect(error.message).toBe('too many failed logins: try again in 15 minutes')
  expect(error.headers).toEqual({ 'retry-after': '842' })
  expect(error.data).toEqual({ code: 'login_rate_limited', retry_after: 842 })
  expect(loginError({ ok: false, retryAfter: 0.2 }).message).toBe('too many failed logins: try again in 1 second')
})
