import { afterAll, expect, test } from 'bun:test'
import { forEachBackend, until } from './backends'
import type { Coordination } from '../../src/coord/types'
import { createLocalResponseHomes } from '../../src/coord/local-response-homes'

/** Response homes (coord (i)): what one node remembers the other reads, by TTL; one node keeps a bounded number. */
const opened: Coordination[] = []
afterAll(async () => {
  await Promise.all(opened.map((n) => n.close('abandon')))
})

forEachBackend((backend) => {
  test("a home one node writes is the other's, lapses with its TTL, and is forgotten on delete", async () => {
    const nodes = await backend.nodes(2)
    opened.push(...nodes)
    const [a, b] = nodes as [Coordination, Coordination]
    const home = { channelId: 7, keyFp: '0123456789abcdef', userId: 3, model: 'gpt-5|odd' }
    a.responses.set('resp_long', home, 60_000, 10)
    a.responses.set('resp_short', { ...home, channelId: 8 }, 300, 10)
    const reader = a.health().backend === 'redis' ? b : a // local nodes each hold their own
    await until(async () => (await reader.responses.get('resp_long')) !== undefined, 2000, 'the home')
    expect(await reader.responses.get('resp_long')).toEqual(home)
    await until(async () => (await reader.responses.get('resp_short')) === undefined, 3000, 'the TTL')
    reader.responses.delete('resp_long') // on redis, the other node forgets what the first wrote
    await until(async () => (await a.responses.get('resp_long')) === undefined && (await b.responses.get('resp_long')) === undefined, 2000, 'the delete')
  }, 20_000)

  test('a written home is readable by the other node as soon as the write settles: a retrieve right after a create finds it', async () => {
    const nodes = await backend.nodes(2)
    opened.push(...nodes)
    const [a, b] = nodes as [Coordination, Coordination]
    const reader = a.health().backend === 'redis' ? b : a
    const home = { channelId: 9, keyFp: 'fedcba9876543210', userId: 4, model: 'gpt-5' }
    for (let i = 0; i < 20; i++) {
      await a.responses.set(`resp_now_${i}`, home, 60_000, 100)
      expect(await reader.responses.get(`resp_now_${i}`)).toEqual(home)
    }
  }, 20_000)
})

test('one node keeps at most maxEntries homes, the least recently used going first', async () => {
  let now = 0
  const homes = createLocalResponseHomes(() => now)
  const home = { channelId: 1, keyFp: 'f', userId: 1, model: 'm' }
  for (let i = 0; i < 5; i++) homes.set(`resp_${i}`, home, 1000, 3)
  expect(homes.size()).toBe(3)
  expect(await homes.get('resp_1')).toBeUndefined()
  expect(await homes.get('resp_4')).toEqual(home)
  now = 1000
  expect(await homes.get('resp_4')).toBeUndefined()
})
