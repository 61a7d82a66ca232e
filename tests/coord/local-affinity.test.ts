import { expect, test } from 'bun:test'
import { createLocalAffinity } from '../../src/coord/local-affinity'

const pin = (channelId: number) => ({ channelId, keyFp: `fp${channelId}` })

test('one node holds at most max_entries pins, the least recently used going first', async () => {
  const cache = createLocalAffinity(() => 0)
  for (let i = 0; i < 5; i++) cache.set(`codex:t1:${i}`, pin(i), 60_000, 5)
  await cache.get('codex:t1:0') // used: now the most recent
  cache.set('codex:t1:5', pin(5), 60_000, 5)
  cache.set('codex:t1:6', pin(6), 60_000, 5)
  expect(cache.size()).toBe(5)
  expect(await cache.get('codex:t1:0')).toEqual(pin(0))
  expect(await cache.get('codex:t1:1')).toBeUndefined()
  expect(await cache.get('codex:t1:2')).toBeUndefined()
  expect(await cache.get('codex:t1:6')).toEqual(pin(6))
})

test('a pin lapses after its TTL; stats count per rule and clears go by rule or all', async () => {
  let now = 0
  const cache = createLocalAffinity(() => now)
  cache.set('codex:t1:a', pin(1), 1_000, 100)
  cache.set('claude-code:t1:b', pin(2), 5_000, 100)
  cache.set('claude-code:t2:c', pin(3), 5_000, 100)
  expect(await cache.stats()).toEqual({ total: 3, byRule: { codex: 1, 'claude-code': 2 } })
  now = 1_000
  expect(await cache.get('codex:t1:a')).toBeUndefined()
  expect(await cache.stats()).toEqual({ total: 2, byRule: { 'claude-code': 2 } })
  expect(await cache.clear('codex')).toBe(0)
  expect(await cache.clear('claude-code')).toBe(2)
  cache.set('opencode:t1:d', pin(4), 5_000, 100)
  expect(await cache.clear()).toBe(1)
  expect(cache.size()).toBe(0)
})
