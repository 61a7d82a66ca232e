import { afterEach, expect, test } from 'bun:test'
import { isFatalFailure } from '../../../src/relay/routing'
import { routingFixture, type RoutingFixture } from './helpers'

let fx: RoutingFixture
let servers: { stop(force?: boolean): void }[] = []
afterEach(() => {
  fx?.close()
  for (const s of servers) s.stop(true)
  servers = []
})

const status = async (id: number) => (await fx.repo.findById(id))!.status
const enabledAbilities = async (id: number) => (await fx.repo.abilities(id)).filter((a) => a.enabled).length

test('one ordinary error never disables; the threshold of consecutive failures does (status 3, abilities off)', async () => {
  fx = routingFixture()
  const id = await fx.add({ models: 'm,n' })
  const fail = { ok: false, status: 500, message: 'upstream overloaded' } as const
  expect(await fx.routing.recordResult(id, fail)).toEqual({ failures: 1, disabled: false })
  expect(await fx.routing.recordResult(id, fail)).toMatchObject({ failures: 2, disabled: false })
  expect(await status(id)).toBe(1)
  expect(await enabledAbilities(id)).toBe(2)
  const third = await fx.routing.recordResult(id, fail)
  expect(third).toMatchObject({ failures: 3, disabled: true, reason: '3 consecutive failures' })
  expect(await status(id)).toBe(3)
  expect(await enabledAbilities(id)).toBe(0)
  expect(await fx.routing.planRoute('default', 'm')).toEqual([])
})

test("the request's own 4xx (a malformed body, a context too long) never counts: one client cannot disable a channel for everyone", async () => {
  fx = routingFixture()
  const id = await fx.add({})
  const faults = [
    { ok: false, status: 400, message: 'messages.3.content: unexpected control character' },
    { ok: false, status: 400, message: "This model's maximum context length is 128000 tokens" },
    { ok: false, status: 404, message: 'The model `gpt-9` does not exist' },
    { ok: false, status: 413, message: 'request too large' },
    { ok: false, status: 422, message: 'unprocessable' },
  ] as const
  for (let round = 0; round < 3; round++) for (const outcome of faults) expect(await fx.routing.recordResult(id, outcome)).toEqual({ failures: 0, disabled: false })
  expect(await status(id)).toBe(1)
  expect(await fx.routing.health.failures(id)).toBe(0)
  // the channel's own troubles still count: 429 and 408 as ordinary failures, 5xx and no status too
  for (const outcome of [{ ok: false, status: 429, message: 'rate limited' }, { ok: false, status: 408 }, { ok: false, message: 'connection reset' }] as const) await fx.routing.recordResult(id, outcome)
  expect(await status(id)).toBe(3)
})

test('a success resets the count; the threshold is the ChannelFailureThreshold option', async () => {
  fx = routingFixture()
  const id = await fx.add({})
  const fail = { ok: false, status: 502 } as const
  await fx.routing.recordResult(id, fail)
  await fx.routing.recordResult(id, fail)
  await fx.routing.recordResult(id, { ok: true })
  await fx.routing.recordResult(id, fail)
  await fx.routing.recordResult(id, fail)
  expect(await status(id)).toBe(1)
  fx.options.ChannelFailureThreshold = 5
  await fx.routing.recordResult(id, fail)
  await fx.routing.recordResult(id, fail)
  expect(await status(id)).toBe(1)
  expect(await fx.routing.health.failures(id)).toBe(4)
  await fx.routing.recordResult(id, fail)
  expect(await status(id)).toBe(3)
})

test('401 / 403 or a dead-key / no-quota message disables at once', async () => {
  fx = routingFixture()
  const cases = [
    { ok: false, status: 401, message: 'unauthorized' },
    { ok: false, status: 403, message: '' },
    { ok: false, status: 429, message: 'You exceeded your current quota, please check your plan and billing details.' },
    { ok: false, status: 400, message: 'API key not valid. Please pass a valid API key.' },
    { ok: false, status: 400, message: 'Your credit balance is too low to access the Anthropic API.' },
    { ok: false, status: 400, message: 'This account has been deactivated' },
  ] as const
  for (const outcome of cases) {
    const id = await fx.add({})
    const verdict = await fx.routing.recordResult(id, outcome)
    expect(verdict.disabled, JSON.stringify(outcome)).toBe(true)
    expect(await status(id)).toBe(3)
  }
  expect(isFatalFailure(429, 'Rate limit reached for requests')).toBe(false)
  expect(isFatalFailure(500, 'internal error')).toBe(false)
  expect(isFatalFailure(undefined, 'fetch failed')).toBe(false)
})

test('auto_ban off, or a manually disabled channel: never auto-disabled', async () => {
  fx = routingFixture()
  const noBan = await fx.add({ autoBan: 0 })
  const manual = await fx.add({ status: 2 })
  for (let i = 0; i < 5; i++) {
    await fx.routing.recordResult(noBan, { ok: false, status: 401 })
    await fx.routing.recordResult(manual, { ok: false, status: 401 })
  }
  expect(await status(noBan)).toBe(1)
  expect(await status(manual)).toBe(2)
})

test('the probe re-tests auto-disabled channels and re-enables those that work again', async () => {
  let healthy = false
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () =>
      healthy
        ? Response.json({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' } }] })
        : Response.json({ error: { message: 'down' } }, { status: 503 }),
  })
  servers.push(server)
  fx = routingFixture()
  const base = `http://127.0.0.1:${server.port}`
  const dead = await fx.add({ type: 8, baseUrl: base })
  const manual = await fx.add({ type: 8, baseUrl: base, status: 2 })
  await fx.routing.recordResult(dead, { ok: false, status: 401 })
  expect(await status(dead)).toBe(3)

  let pass = await fx.routing.probe.runOnce()
  expect(pass).toEqual({ tested: 1, reenabled: [] })
  expect(await status(dead)).toBe(3)
  expect((await fx.repo.findById(dead))!.testTime).toBeGreaterThan(0)

  healthy = true
  pass = await fx.routing.probe.runOnce()
  expect(pass).toEqual({ tested: 1, reenabled: [dead] })
  expect(await status(dead)).toBe(1)
  expect(await enabledAbilities(dead)).toBe(1)
  expect(await status(manual)).toBe(2) // manual disables are left alone
  expect((await fx.routing.planRoute('default', 'm')).map((c) => c.channel.id)).toEqual([dead])
  expect(await fx.routing.health.failures(dead)).toBe(0)
})

test('probe start/stop manage one timer', () => {
  fx = routingFixture()
  expect(fx.routing.probe.running).toBe(false)
  fx.routing.probe.start()
  fx.routing.probe.start()
  expect(fx.routing.probe.running).toBe(true)
  fx.routing.probe.stop()
  expect(fx.routing.probe.running).toBe(false)
})

test('a dead key of a pool leaves the rotation, not the channel; the last one disables the channel; re-enabled, all keys return', async () => {
  fx = routingFixture()
  const id = await fx.add({ keyText: 'k1\nk2\nk3' })
  const keysHandedOut = async (n: number) => {
    const keys = new Set<string>()
    for (let i = 0; i < n; i++) keys.add((await fx.routing.planRoute('default', 'm'))[0]!.key)
    return [...keys].sort()
  }
  const dead = (key: string) => fx.routing.recordResult(id, { ok: false, status: 401, message: 'invalid api key', key })

  expect(await dead('k2')).toMatchObject({ disabled: false, keyDisabled: true })
  expect(await status(id)).toBe(1)
  expect(await keysHandedOut(6)).toEqual(['k1', 'k3'])
  expect(await dead('k1')).toMatchObject({ disabled: false, keyDisabled: true })
  expect(await keysHandedOut(4)).toEqual(['k3'])
  expect(await dead('k3')).toMatchObject({ disabled: true })
  expect(await status(id)).toBe(3)

  await fx.routing.channels.setStatus([id], 1)
  expect(await keysHandedOut(6)).toEqual(['k1', 'k2', 'k3'])
})

test('an ordinary failure on a pooled key counts toward the channel, as before; a single-key channel still goes at once', async () => {
  fx = routingFixture()
  const pooled = await fx.add({ keyText: 'k1\nk2' })
  for (let i = 0; i < 3; i++) await fx.routing.recordResult(pooled, { ok: false, status: 500, message: 'overloaded', key: 'k1' })
  expect(await status(pooled)).toBe(3)
  const single = await fx.add({ keyText: 'only' })
  expect(await fx.routing.recordResult(single, { ok: false, status: 401, key: 'only' })).toMatchObject({ disabled: true })
  expect(await status(single)).toBe(3)
})

test('a deleted channel leaves no failure count behind', async () => {
  fx = routingFixture()
  const id = await fx.add({})
  await fx.routing.recordResult(id, { ok: false, status: 500 })
  await fx.routing.recordResult(id, { ok: false, status: 500 })
  expect(await fx.routing.health.failures(id)).toBe(2)
  expect(await fx.routing.channels.remove([id])).toEqual([id])
  expect(await fx.routing.health.failures(id)).toBe(0)
})
