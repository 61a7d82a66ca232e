import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTaskPoller } from '../../src/tasks/service'
import { startFakeVidu } from '../helpers/fake-upstreams/vidu'
import { startVideoEnv } from './video-env'

const KEY = 'vda_nodes_0123456789'
let e: Awaited<ReturnType<typeof startVideoEnv>>
let vidu: Awaited<ReturnType<typeof startFakeVidu>>

beforeAll(async () => {
  e = await startVideoEnv()
  vidu = await startFakeVidu(KEY)
  await e.env.addChannel({ type: 52, baseUrl: vidu.url, keyText: KEY, models: 'viduq1' })
  await e.env.app.deps.options.set('ModelPrice', { viduq1: 0.25 })
})
afterAll(async () => {
  await e.env.stop()
  vidu.stop()
})

// Two pollers on one database (two nodes' worth of leases): each round both claim at once; every video is fetched
// once per round, never twice, and a failed one is refunded once.
test('two nodes polling the same videos: one fetch per video per round, each failure refunded once, the balance exact', async () => {
  const { deps } = e.env.app
  const other = createTaskPoller({ tasks: deps.repos.tasks, channels: deps.routing.channels, options: deps.options, outbound: deps.outbound, clock: deps.clock })
  const before = await e.quotaOf()
  const outcomes = e.env.outcomes.length
  const prompts = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? `please fail ${i}` : i % 3 === 1 ? `slow ${i}` : `fine ${i}`))
  const ids: string[] = []
  for (const prompt of prompts) ids.push(((await (await e.env.app.fetch('/v1/videos', { method: 'POST', headers: { authorization: `Bearer ${e.env.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'viduq1', prompt }) })).json()) as { id: string }).id)
  await e.settled(outcomes + prompts.length)
  expect(before - (await e.quotaOf())).toBe(12 * 0.25 * 500_000)
  const step = deps.options.get<number>('TaskPollIntervalSeconds') * 1000 + 1
  let at = deps.clock.now()
  for (let round = 1; round <= 5; round++) {
    at += step
    deps.clock.now = () => at
    const [a, b] = await Promise.all([deps.taskPoller.pollNow(), other.pollNow()])
    // together they claimed every running video once
    const running = round <= 2 ? 12 : 4
    expect(a + b).toBe(running)
  }
  for (const id of ids) {
    const upstream = (await e.row(id)).upstreamTaskId
    const ended = prompts[ids.indexOf(id)]!.startsWith('slow') ? 5 : 2
    expect(vidu.store.pollsOf(upstream)).toBe(ended)
  }
  const rows = (await e.refundRows()).filter((r) => r.content.includes('failed'))
  expect(rows).toHaveLength(4)
  expect(before - (await e.quotaOf())).toBe(8 * 0.25 * 500_000)
})
