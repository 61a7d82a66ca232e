import { afterEach, expect, test } from 'bun:test'
import { mapModel, parseModelMapping } from '../../../src/relay/routing/model-mapping'
import { seededRandom } from '../../../src/relay/routing'
import { routingFixture, type RoutingFixture } from './helpers'

let fx: RoutingFixture
afterEach(() => fx?.close())

const ids = async (group: string, model: string) => (await fx.routing.planRoute(group, model)).map((c) => c.channel.id)

test('only enabled channels of the group and model, highest priority first', async () => {
  fx = routingFixture()
  const low = await fx.add({ priority: 0, models: 'm,other' })
  const high = await fx.add({ priority: 10 })
  const mid = await fx.add({ priority: 5, group: 'default,vip' })
  await fx.add({ priority: 99, status: 2 })
  await fx.add({ priority: 99, status: 3 })
  await fx.add({ priority: 99, group: 'vip' })
  await fx.add({ priority: 99, models: 'not-m' })
  expect(await ids('default', 'm')).toEqual([high, mid, low])
  expect(await ids('vip', 'm')).toHaveLength(2)
  expect(await ids('default', 'other')).toEqual([low])
  expect(await ids('default', 'nope')).toEqual([])
  expect(await ids('nogroup', 'm')).toEqual([])
})

test('the index follows writes: disable, re-enable, regroup, delete', async () => {
  fx = routingFixture()
  const a = await fx.add({})
  const b = await fx.add({ priority: 1 })
  await fx.routing.channels.setStatus([b], 2)
  expect(await ids('default', 'm')).toEqual([a])
  await fx.routing.channels.setStatus([b], 1)
  expect(await ids('default', 'm')).toEqual([b, a])
  await fx.routing.channels.update(b, { group: 'vip' })
  expect(await ids('default', 'm')).toEqual([a])
  expect(await ids('vip', 'm')).toEqual([b])
  await fx.routing.channels.remove([a])
  expect(await ids('default', 'm')).toEqual([])
})

test('weighted random order within a priority: first place ∝ weight (10 000 seeded draws)', async () => {
  fx = routingFixture()
  fx.routing.setRandom(seededRandom(42))
  const w1 = await fx.add({ weight: 1 })
  const w3 = await fx.add({ weight: 3 })
  const w6 = await fx.add({ weight: 6 })
  const fallback = await fx.add({ priority: -1, weight: 100 })
  const first = new Map<number, number>()
  const N = 10_000
  for (let i = 0; i < N; i++) {
    const order = await ids('default', 'm')
    expect(order).toHaveLength(4)
    expect(order[3]).toBe(fallback) // a lower priority always comes after, whatever its weight
    first.set(order[0]!, (first.get(order[0]!) ?? 0) + 1)
  }
  expect(first.get(w1)! / N).toBeCloseTo(0.1, 1)
  expect(first.get(w3)! / N).toBeCloseTo(0.3, 1)
  expect(first.get(w6)! / N).toBeCloseTo(0.6, 1)
})

test('weight 0 is a backup within its priority: never first while a weighted channel exists', async () => {
  fx = routingFixture()
  const zeroA = await fx.add({ weight: 0 })
  const weighted = await fx.add({ weight: 1 })
  const zeroB = await fx.add({ weight: 0 })
  const seenSecond = new Set<number>()
  for (let i = 0; i < 300; i++) {
    const order = await ids('default', 'm')
    expect(order[0]).toBe(weighted)
    seenSecond.add(order[1]!)
  }
  expect(seenSecond).toEqual(new Set([zeroA, zeroB])) // backups are shuffled among themselves
  await fx.routing.channels.setStatus([weighted], 2)
  const firsts = new Set<number>()
  for (let i = 0; i < 200; i++) firsts.add((await ids('default', 'm'))[0]!)
  expect(firsts).toEqual(new Set([zeroA, zeroB]))
})

test('several keys are used in turn, per channel; unused fallbacks do not lose their turn', async () => {
  fx = routingFixture()
  const main = await fx.add({ priority: 1, keyText: 'k1\nk2\nk3' })
  const backup = await fx.add({ priority: 0, keyText: 'b1\nb2' })
  const used: string[] = []
  for (let i = 0; i < 7; i++) {
    const [first] = await fx.routing.planRoute('default', 'm')
    expect(first!.channel.id).toBe(main)
    used.push(first!.key)
    expect(first!.key).toBe(first!.key) // stable per candidate
  }
  expect(used).toEqual(['k1', 'k2', 'k3', 'k1', 'k2', 'k3', 'k1'])
  const plan = await fx.routing.planRoute('default', 'm')
  expect(plan[1]!.channel.id).toBe(backup)
  expect(plan[1]!.key).toBe('b1')
  expect((await fx.routing.planRoute('default', 'm'))[1]!.key).toBe('b2')
  expect(plan[1]!.keyIndex).toBe(0)
})

test('each candidate carries the upstream model after its own mapping (chains followed)', async () => {
  fx = routingFixture()
  await fx.add({ priority: 2, models: 'gpt-4o', modelMapping: JSON.stringify({ 'gpt-4o': 'gpt-4o-2024', 'gpt-4o-2024': 'gpt-4o-final' }) })
  await fx.add({ priority: 1, models: 'gpt-4o' })
  const plan = await fx.routing.planRoute('default', 'gpt-4o')
  expect(plan.map((c) => c.upstreamModel)).toEqual(['gpt-4o-final', 'gpt-4o'])
})

test('a plan made for (group, model) follows later edits of its channels: mapping, priority, weight', async () => {
  fx = routingFixture()
  const a = await fx.add({ priority: 1 })
  const b = await fx.add({ priority: 0 })
  expect(await ids('default', 'm')).toEqual([a, b])
  await fx.routing.channels.update(a, { modelMapping: JSON.stringify({ m: 'm-2' }) })
  expect((await fx.routing.planRoute('default', 'm')).map((c) => c.upstreamModel)).toEqual(['m-2', 'm'])
  await fx.routing.channels.update(b, { priority: 2 })
  expect(await ids('default', 'm')).toEqual([b, a])
  await fx.routing.channels.update(a, { priority: 2, weight: 1 })
  await fx.routing.channels.update(b, { weight: 0 })
  for (let i = 0; i < 20; i++) expect(await ids('default', 'm')).toEqual([a, b])
})

test('model mapping: parse rules and resolution', () => {
  expect(parseModelMapping('')).toEqual({})
  expect(parseModelMapping(null)).toEqual({})
  expect(parseModelMapping('{"a":" b "}')).toEqual({ a: 'b' })
  expect(parseModelMapping({ a: 'a' })).toEqual({ a: 'a' })
  expect(() => parseModelMapping({ a: 'b', b: 'a' })).toThrow(/cycle/)
  expect(() => parseModelMapping({ x: 'a', a: 'b', b: 'c', c: 'a' })).toThrow(/cycle/)
  expect(() => parseModelMapping({ a: 1 })).toThrow(/string/)
  expect(() => parseModelMapping({ a: '' })).toThrow(/string/)
  expect(() => parseModelMapping({ a: null })).toThrow(/string/)
  expect(() => parseModelMapping('[]')).toThrow(/object/)
  expect(() => parseModelMapping('{')).toThrow(/JSON/)
  expect(mapModel({ a: 'b', b: 'c' }, 'a')).toBe('c')
  expect(mapModel({ a: 'a' }, 'a')).toBe('a')
  expect(mapModel({ a: 'b' }, 'z')).toBe('z')
})
