import { expect, test } from 'bun:test'
import type { Lease, TopicEvent } from '../../src/coord/types'
import { forEachBackend, until } from './backends'

forEachBackend((backend) => {
  test('publish reaches every node’s subscribers, the publisher’s own marked fromSelf', async () => {
    const nodes = await backend.nodes(3)
    const seen: TopicEvent[][] = [[], [], []]
    const offs = await Promise.all(nodes.map((n, i) => n.subscribe('tokens', (e) => seen[i]!.push(e))))
    await nodes[0]!.publish('tokens', '{"id":42}')
    await until(() => seen.every((s) => s.length === 1), 5000, 'delivered everywhere') // a hang detector: it takes ms
    expect(seen[0]![0]).toEqual({ topic: 'tokens', payload: '{"id":42}', fromSelf: true })
    expect(seen[1]![0]).toEqual({ topic: 'tokens', payload: '{"id":42}', fromSelf: false })
    expect(seen[2]![0]).toEqual({ topic: 'tokens', payload: '{"id":42}', fromSelf: false })
    // no payload: reload it all; payloads with the separator survive
    await nodes[1]!.publish('tokens')
    await nodes[2]!.publish('tokens', 'a|b|c')
    await until(() => seen.every((s) => s.length === 3), 1000, 'two more')
    expect(seen[0]!.slice(1).map((e) => e.payload)).toEqual([null, 'a|b|c'])
    // unsubscribed: nothing more, and other topics never arrive
    offs[2]!()
    await nodes[0]!.publish('tokens', 'late')
    await nodes[0]!.publish('users', 'other topic')
    await until(() => seen[1]!.length === 4, 1000, 'the fourth')
    await Bun.sleep(100)
    expect(seen[2]).toHaveLength(3)
    expect(seen[0]!.map((e) => e.topic).every((t) => t === 'tokens')).toBe(true)
  })

  test('a job lease is held by one node, renewed past its TTL, and taken over once its holder stops renewing', async () => {
    // renewed every third of it: 1 s outlasts the pauses a loaded machine puts between a process's timers
    const ttl = 1000
    const [a, b, c] = await backend.nodes(3)
    const held = await a!.tryAcquireLease('probe', ttl)
    expect(held?.held).toBe(true)
    expect(await a!.tryAcquireLease('probe', ttl)).toBeNull() // its own holding included
    expect(await b!.tryAcquireLease('probe', ttl)).toBeNull()
    await Bun.sleep(ttl * 2)
    expect(await c!.tryAcquireLease('probe', ttl)).toBeNull()
    await a!.close('abandon')
    let taken: Lease | null = null
    // it lapses by its TTL (renewed, it outlived 2 TTLs above); 10 TTLs is a hang detector with a loaded machine's slack
    await until(async () => (taken = await b!.tryAcquireLease('probe', ttl)) !== null, 10 * ttl, 'lease taken over')
    expect(await c!.tryAcquireLease('probe', ttl)).toBeNull()
    await taken!.release()
    expect(taken!.held).toBe(false)
    const next = await c!.tryAcquireLease('probe', ttl)
    expect(next?.held).toBe(true)
    await next!.release()
  })

  test('runExclusive runs on one node of three at a time, and the lease is free after', async () => {
    const nodes = await backend.nodes(3)
    let running = 0
    let most = 0
    const job = async () => {
      most = Math.max(most, ++running)
      await Bun.sleep(100)
      running--
      return 'done'
    }
    const results = await Promise.all(nodes.map((n) => n.runExclusive('retention', 5000, job)))
    expect(results.filter((r) => r.ran)).toEqual([{ ran: true, value: 'done' }])
    expect(most).toBe(1)
    expect(await nodes[2]!.runExclusive('retention', 5000, job)).toEqual({ ran: true, value: 'done' })
    // a failing job gives the lease back too
    await expect(nodes[1]!.runExclusive('retention', 5000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect((await nodes[0]!.runExclusive('retention', 5000, job)).ran).toBe(true)
  })

  test('nodes register with a heartbeat; a dead node’s registration lapses, a stopped one leaves at once', async () => {
    const ttl = 1000 // as above: heartbeats every third of it must not miss it under load
    const [a, b, c] = await backend.nodes(3, { nodeTtlMs: ttl })
    await a!.register('node-a')
    await b!.register('node-b')
    expect(await c!.liveNodes()).toEqual(['node-a', 'node-b'])
    await Bun.sleep(ttl * 2) // heartbeats keep them
    expect(await c!.liveNodes()).toEqual(['node-a', 'node-b'])
    await a!.close('abandon')
    // it lapses by its TTL (heartbeats kept it 2 TTLs above); 10 TTLs is a hang detector with a loaded machine's slack
    await until(async () => (await c!.liveNodes()).length === 1, 10 * ttl, 'registration lapsed')
    expect(await c!.liveNodes()).toEqual(['node-b'])
    // a restart under the same id replaces the entry rather than waiting for it
    await c!.register('node-b')
    expect(await b!.liveNodes()).toEqual(['node-b'])
    await b!.close('graceful')
    await c!.close('graceful')
    const [d] = await backend.nodes(1)
    if (backend.name === 'redis') expect(await d!.liveNodes()).toEqual([])
  })

  test('channel failures add up across nodes; a success on any node resets them everywhere', async () => {
    const [a, b, c] = await backend.nodes(3)
    expect(await a!.channelFailure(7)).toBe(1)
    expect(await b!.channelFailure(7)).toBe(2)
    expect(await c!.channelFailure(8)).toBe(1)
    expect(await c!.channelFailures(7)).toBe(2)
    expect(await a!.allChannelFailures()).toEqual(new Map([[7, 2], [8, 1]]))
    // c learns of 7's failures from the others' announcements; its success resets the shared count
    await until(async () => {
      c!.channelSuccess(7)
      return (await a!.channelFailures(7)) === 0
    }, 1000, 'reset seen by a')
    expect(await b!.channelFailures(7)).toBe(0)
    expect(await a!.channelFailures(8)).toBe(1)
    expect(await a!.channelFailure(7)).toBe(1)
  })

  test('a node that starts later knows which channels have failures, so its first success resets them', async () => {
    const [a] = await backend.nodes(1)
    await a!.channelFailure(3)
    await a!.channelFailure(3)
    const late = await backend.join()
    expect(await late.channelFailures(3)).toBe(2)
    late.channelSuccess(3)
    await until(async () => (await a!.channelFailures(3)) === 0, 1000, 'reset by the late node')
  })
})
