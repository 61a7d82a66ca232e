import { afterEach, beforeEach, expect, spyOn, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstreams'
import { routingFixture, type RoutingFixture } from './helpers'

/** The probe over a pool of keys: every key is tried, and one that works brings the channel back. */
let fx: RoutingFixture
let upstream: FakeUpstream
let quiet: ReturnType<typeof spyOn>[] = []

beforeEach(async () => {
  upstream = await startFakeUpstream()
  quiet = (['log', 'warn'] as const).map((level) => spyOn(console, level).mockImplementation(() => {}))
})
afterEach(async () => {
  fx?.close()
  await upstream.stop()
  for (const spy of quiet) spy.mockRestore()
})

const FIRST = 'sk-probe-first-key-aaaaaaaa1111'
const SECOND = 'sk-probe-second-key-bbbbbbbb2222'

async function keysHandedOut(n: number): Promise<string[]> {
  const keys = new Set<string>()
  for (let i = 0; i < n; i++) keys.add((await fx.routing.planRoute('default', 'm'))[0]!.key)
  return [...keys].sort()
}

test('a channel whose keys all died comes back when one of them works; the dead one stays out of the rotation', async () => {
  fx = routingFixture()
  const id = await fx.add({ type: 1, baseUrl: upstream.url, keyText: `${FIRST}\n${SECOND}` })
  const dead = (key: string) => fx.routing.recordResult(id, { ok: false, status: 401, message: 'invalid api key', key })
  await dead(FIRST)
  await dead(SECOND)
  expect((await fx.repo.findById(id))!.status).toBe(3)

  upstream.setKeys(['sk-someone-else-entirely-0000'])
  expect(await fx.routing.probe.runOnce()).toEqual({ tested: 1, reenabled: [] })
  expect(upstream.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${FIRST}`, `Bearer ${SECOND}`])

  upstream.setKeys([SECOND])
  expect(await fx.routing.probe.runOnce()).toEqual({ tested: 1, reenabled: [id] })
  expect((await fx.repo.findById(id))!.status).toBe(1)
  expect(await keysHandedOut(4)).toEqual([SECOND])
})

test('a single-key channel: the probe re-enables it once its key works again', async () => {
  fx = routingFixture()
  const id = await fx.add({ type: 1, baseUrl: upstream.url, keyText: FIRST })
  await fx.routing.recordResult(id, { ok: false, status: 401, key: FIRST })
  upstream.setKeys([SECOND])
  expect((await fx.routing.probe.runOnce()).reenabled).toEqual([])
  upstream.setKeys([FIRST])
  expect((await fx.routing.probe.runOnce()).reenabled).toEqual([id])
  expect(await keysHandedOut(2)).toEqual([FIRST])
  expect(upstream.requests).toHaveLength(2)
})
