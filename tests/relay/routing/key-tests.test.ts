import { afterEach, expect, test } from 'bun:test'
import { testEachKey } from '../../../src/relay/routing/key-tests'
import { routingFixture, type RoutingFixture } from './helpers'
import { until } from '../../helpers/wait'

let fixture: RoutingFixture | undefined
afterEach(() => fixture?.close())

/** A fake upstream call that holds each request until released, counting how many wait at once. */
function heldFetch() {
  let waiting = 0
  let most = 0
  const releases: (() => void)[] = []
  const seenKeys: string[] = []
  const fetchImpl = async (_url: string, init?: RequestInit) => {
    seenKeys.push(new Headers(init?.headers).get('authorization') ?? '')
    waiting++
    most = Math.max(most, waiting)
    await new Promise<void>((resolve) => releases.push(resolve))
    waiting--
    const key = new Headers(init?.headers).get('authorization') ?? ''
    return key.endsWith('-3')
      ? Response.json({ error: { message: 'Incorrect API key provided' } }, { status: 401 })
      : Response.json({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] })
  }
  const releaseAll = async () => {
    while (seenKeys.length < 10 || releases.length > 0) {
      releases.splice(0).forEach((release) => release())
      await Bun.sleep(1)
    }
  }
  return { fetchImpl, releaseAll, most: () => most }
}

test('a pool of ten keys is tested eight at a time and reported in key order', async () => {
  const held = heldFetch()
  fixture = routingFixture()
  const keys = Array.from({ length: 10 }, (_, i) => `sk-pool-key-000000000000-${i + 1}`)
  const id = await fixture.add({ keyText: keys.join('\n'), baseUrl: 'http://127.0.0.1:9' })
  const tests = testEachKey(fixture.routing.channels.get(id)!, undefined, held.fetchImpl)
  await until(() => held.most() >= 8, { what: 'eight keys under test' })
  expect(held.most()).toBe(8) // the first eight wait together; the last two have not started
  await held.releaseAll()
  const results = await tests
  expect(results.map((t) => t.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  expect(results.map((t) => t.result.ok)).toEqual(keys.map((k) => !k.endsWith('-3')))
})
