import { afterAll, expect, test } from 'bun:test'
import { forEachBackend, until } from './backends'
import type { Coordination } from '../../src/coord/types'

/** Session pins (coord (h)): shared by every node of a group, by TTL, counted and cleared per rule. */
const opened: Coordination[] = []
afterAll(async () => {
  await Promise.all(opened.map((n) => n.close('abandon')))
})

forEachBackend((backend) => {
  test("a pin one node writes is the other's, lapses with its TTL, and is counted and cleared per rule", async () => {
    const nodes = await backend.nodes(2)
    opened.push(...nodes)
    const [a, b] = nodes as [Coordination, Coordination]
    const shared = a.health().backend === 'redis'
    a.affinity.set('codex:t1:s1', { channelId: 7, keyFp: 'abc' }, 60_000, 10)
    a.affinity.set('claude-code:t1:s2', { channelId: 8, keyFp: 'def' }, 300, 10)
    const reader = shared ? b : a // local nodes each hold their own
    await until(async () => (await reader.affinity.get('codex:t1:s1')) !== undefined, 2000, 'the pin')
    expect(await reader.affinity.get('codex:t1:s1')).toEqual({ channelId: 7, keyFp: 'abc' })
    expect(await reader.affinity.stats()).toEqual({ total: 2, byRule: { codex: 1, 'claude-code': 1 } })
    await until(async () => (await reader.affinity.get('claude-code:t1:s2')) === undefined, 3000, 'the TTL')
    expect(await reader.affinity.clear('codex')).toBe(1)
    expect(await a.affinity.get('codex:t1:s1')).toBeUndefined()
  }, 20_000)
})
