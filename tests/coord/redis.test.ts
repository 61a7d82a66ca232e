/**
 * What only the Redis backend can go through: messages missed on the wire, Redis going away and coming back,
 * TLS, a node process killed with SIGKILL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { createRedisCoordination } from '../../src/coord/redis'
import type { AcquireResult, Coordination, TopicEvent } from '../../src/coord/types'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { limits, redisBackend, scope, until } from './backends'

describe.skipIf(!hasRedis())('redis only', () => {
  let server: RedisServer
  const backend = redisBackend(() => server)
  const warnings: string[] = []
  const warn = console.warn
  beforeAll(async () => {
    server = await startRedis()
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '))
  })
  afterAll(async () => {
    console.warn = warn
    await server.stop()
  })
  const nodes: Coordination[] = []
  const group = async (n: number, options = {}) => {
    const made = await backend.nodes(n, options)
    nodes.push(...made)
    return made
  }
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((n) => n.close('abandon')))
    if (!server.pid) await server.start()
    warnings.length = 0
  })

  test('a missed message still invalidates, at the next version check', async () => {
    const [a, b] = await group(2, { versionCheckMs: 500 })
    const seen: TopicEvent[] = []
    await a!.subscribe('channels', (e) => seen.push(e))
    await b!.subscribe('channels', (e) => seen.push(e))
    // a writer whose message never arrived: the version moved, no message was sent
    const raw = await backend.raw()
    await raw.send('INCR', [`${backend.prefix()}ver:channels`])
    raw.close()
    // no message was sent, so only the version check (every 0.5 s) can deliver it; 5 s is a hang detector
    await until(() => seen.length === 2, 5000, 'both nodes invalidated')
    expect(seen).toEqual([
      { topic: 'channels', payload: null, fromSelf: false },
      { topic: 'channels', payload: null, fromSelf: false },
    ])
    // a message that did arrive is not delivered again by the next checks
    await a!.publish('channels', 'x')
    await until(() => seen.length === 4, 1000, 'the message')
    await Bun.sleep(700)
    expect(seen).toHaveLength(4)
  }, 30_000) // bun 1.4.5 ignores bunfig's timeout: without this 5 s would cap the hang detectors

  test('a closed node no longer says its state is shared', async () => {
    const [a] = await group(1)
    expect(a!.health()).toMatchObject({ shared: true, degraded: false })
    await a!.close('abandon')
    expect(a!.health()).toMatchObject({ shared: false, degraded: true, error: 'closed' })
  })

  test('Redis forgets a scope once its buckets would be full again and its leases are gone', async () => {
    const [a] = await group(1, { permitTtlMs: 500 })
    const raw = await backend.raw()
    const keys = async () => (await raw.send('KEYS', [`${backend.prefix()}*`])) as string[]
    const r = await a!.acquire([scope('t:idle', limits(600, 6000, 2))], 60)
    if (!r.ok) throw new Error('refused')
    expect((await keys()).sort()).toEqual([`${backend.prefix()}cc:t:idle`, `${backend.prefix()}rl:t:idle`])
    await r.permit.release(60)
    expect(await keys()).toEqual([`${backend.prefix()}rl:t:idle`]) // the last lease gone, its set with it
    // one request of 600 per minute refills in 0.1 s, 60 tokens of 6000 in 0.6 s: the bucket goes about 1 s after
    await until(async () => (await keys()).length === 0, 2500, 'bucket forgotten')
    raw.close()
  })

  test('a lease another holder took while its owner was away is lost, and its signal aborts', async () => {
    const [a, b] = await group(2)
    const lease = await a!.tryAcquireLease('prune', 300)
    const raw = await backend.raw()
    await raw.send('SET', [`${backend.prefix()}lease:prune`, 'someone else', 'PX', '5000'])
    raw.close()
    await until(() => lease!.lost.aborted, 1000, 'lost')
    expect(lease!.held).toBe(false)
    expect(await b!.tryAcquireLease('prune', 300)).toBeNull()
  })

  test('Redis killed: every node answers from its own limits and says degraded (logged once); restarted: shared again', async () => {
    const three = await group(3)
    const [a, b, c] = three
    const events: TopicEvent[][] = [[], [], []]
    await Promise.all(three.map((n, i) => n.subscribe('options', (e) => events[i]!.push(e))))
    const rpm = [scope('t:outage', limits(5, 0, 0))]
    expect(a!.health()).toMatchObject({ backend: 'redis', shared: true, degraded: false })

    await server.kill()
    const started = performance.now()
    const during: AcquireResult[] = []
    for (let i = 0; i < 8; i++) during.push(await a!.acquire(rpm, 0))
    // eight answers that each waited for the 500 ms command timeout would take 4 s; local ones take milliseconds
    expect(performance.now() - started).toBeLessThan(8 * 500)
    // a's own bucket of 5: the limit holds per node while Redis is away
    expect(during.map((r) => r.ok)).toEqual([true, true, true, true, true, false, false, false])
    expect((await b!.acquire(rpm, 0)).ok).toBe(true)
    await until(() => three.every((n) => n.health().degraded), 1000, 'all degraded')
    expect(a!.health()).toMatchObject({ backend: 'redis', shared: false, degraded: true })
    expect(a!.health().error).toBeString()
    expect(JSON.stringify(a!.health())).not.toContain(String(server.port))
    // everything else answers too
    expect((await a!.loginAttempt([{ key: 'addr:1', free: 3 }], { maxSeconds: 60, forgetSeconds: 60 })).ok).toBe(true)
    expect(await a!.windowHit(['signup:1'], 3, 60)).toEqual({ ok: true })
    expect(await a!.channelFailure(9)).toBe(1)
    expect(await a!.liveNodes()).toEqual([])
    await a!.publish('options', 'changed during the outage')
    await until(() => events[0]!.length === 1, 1000, 'own subscribers')
    expect(events[0]![0]).toEqual({ topic: 'options', payload: 'changed during the outage', fromSelf: true })
    await Bun.sleep(1200) // retries every 500 ms meanwhile: still one line per node
    expect(warnings.filter((w) => w.includes('Redis is unreachable'))).toHaveLength(3)
    expect(events[1]).toHaveLength(0)

    await server.start()
    // nodes retry every 0.5 s: 5 s is a hang detector, not the promise
    await until(() => three.every((n) => n.health().shared), 5000, 'shared again')
    expect(warnings.filter((w) => w.includes('Redis answers again'))).toHaveLength(3)
    // every topic is reloaded on every node (payload null), and a's write made during the outage is published
    // once Redis is back (its version moved on the fresh server), for nodes that came back before it did
    await until(() => events[1]!.length >= 1 && events[2]!.length >= 1, 1000, 'reloads')
    expect([...events[1]!, ...events[2]!].every((e) => e.payload === null)).toBe(true)
    const raw = await backend.raw()
    expect(Number(await raw.send('GET', [`${backend.prefix()}ver:options`]))).toBeGreaterThanOrEqual(1)
    raw.close()
    // shared limits again (the restarted Redis is empty): 5 across the three nodes
    const after = await Promise.all(Array.from({ length: 15 }, (_, i) => three[i % 3]!.acquire(rpm, 0)))
    expect(after.filter((r) => r.ok)).toHaveLength(5)
    expect(await c!.channelFailure(9)).toBe(1)
  }, 30_000)

  test('Redis that stops answering (SIGSTOP) counts as gone after the command timeout', async () => {
    const [a] = await group(1, { timeoutMs: 1000 })
    const rpm = [scope('t:stopped', limits(100, 0, 0))]
    expect((await a!.acquire(rpm, 0)).ok).toBe(true)
    process.kill(server.pid, 'SIGSTOP')
    try {
      const started = performance.now()
      expect((await a!.acquire(rpm, 0)).ok).toBe(true)
      const waited = performance.now() - started
      expect(waited).toBeGreaterThan(950)
      expect(waited).toBeLessThan(10_000) // it gave up at the timeout: a hang detector, 10× the timeout
      expect(a!.health().degraded).toBe(true)
      expect(a!.health().error).toContain('no answer within 1000 ms')
      // degraded: the next one does not ask the stopped Redis (that would take the whole 1 s timeout again)
      const next = performance.now()
      expect((await a!.acquire(rpm, 0)).ok).toBe(true)
      expect(performance.now() - next).toBeLessThan(1000)
    } finally {
      process.kill(server.pid, 'SIGCONT')
    }
    await until(() => a!.health().shared, 2000, 'back')
  }, 30_000)

  test('a node started while Redis is down serves locally, logs it once, and joins when Redis comes', async () => {
    await server.kill()
    const [a] = await group(1)
    expect(a!.health()).toMatchObject({ shared: false, degraded: true })
    expect((await a!.acquire([scope('t:early', limits(1, 0, 0))], 0)).ok).toBe(true)
    expect(warnings.filter((w) => w.includes('unreachable at start'))).toHaveLength(1)
    await server.start()
    await until(() => a!.health().shared, 2000, 'joined')
    await a!.register('late')
    expect(await a!.liveNodes()).toEqual(['late'])
  })

  test('a node killed with SIGKILL: its slot, its job lease and its registration lapse within their TTL', async () => {
    // 2 s: the child renews every third of it, and a loaded machine can hold a process off the CPU for more than 400 ms
    const ttl = 2000
    const [a] = await group(1)
    const prefix = backend.prefix()
    const child = Bun.spawn(['bun', `${import.meta.dir}/fixtures/node.ts`, server.url, prefix, String(ttl)], { stdout: 'pipe', stderr: 'inherit' })
    try {
      const reader = child.stdout.getReader()
      const { value } = await reader.read()
      expect(JSON.parse(new TextDecoder().decode(value))).toMatchObject({ admitted: true, lease: true, health: { shared: true } })
      const one = [scope('t:child', limits(0, 0, 1))]
      await Bun.sleep(ttl * 2) // alive: renewed
      expect((await a!.acquire(one, 0)).ok).toBe(false)
      expect(await a!.tryAcquireLease('probe', ttl)).toBeNull()
      expect(await a!.liveNodes()).toEqual(['child'])
      const killedAt = performance.now()
      child.kill('SIGKILL')
      await child.exited
      await until(async () => (await a!.acquire(one, 0)).ok, 5 * ttl, 'slot')
      await until(async () => (await a!.tryAcquireLease('probe', ttl)) !== null, 5 * ttl, 'lease')
      await until(async () => (await a!.liveNodes()).length === 0, 5 * ttl, 'registration')
      // they lapse by their TTL (alive, they were renewed for 2 TTLs above); 5 TTLs is a hang detector with slack
      expect(performance.now() - killedAt).toBeLessThan(5 * ttl)
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)
})

describe.skipIf(!hasRedis())('rediss://', () => {
  let server: RedisServer
  beforeAll(async () => {
    server = await startRedis({ tls: true })
  })
  afterAll(() => server.stop())

  test('TLS with a private CA: limits and pub/sub shared between two nodes', async () => {
    expect(server.url.startsWith('rediss://')).toBe(true)
    const nodes = await Promise.all([0, 1].map(() => createRedisCoordination({ url: server.url, tls: { ca: server.ca }, prefix: 'tls:' })))
    try {
      expect(nodes.map((n) => n.health().shared)).toEqual([true, true])
      const rpm = [scope('t:tls', limits(3, 0, 0))]
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => nodes[i % 2]!.acquire(rpm, 0)))
      expect(results.filter((r) => r.ok)).toHaveLength(3)
      const seen: TopicEvent[] = []
      await nodes[1]!.subscribe('users', (e) => seen.push(e))
      await nodes[0]!.publish('users', '7')
      await until(() => seen.length === 1, 1000, 'over TLS')
      // without the CA the certificate is refused: degraded, not trusted
      const untrusting = await createRedisCoordination({ url: server.url, prefix: 'tls:' })
      expect(untrusting.health().degraded).toBe(true)
      await untrusting.close()
    } finally {
      await Promise.all(nodes.map((n) => n.close()))
    }
  })
})
