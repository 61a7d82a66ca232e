import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

/** x-tollgate-overhead-ms: the gateway's own time, from arrival (auth and parsing included), upstream wait excluded. */
let env: RelayEnv
beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o' })
})
afterAll(() => env.stop())

const chat = (stream: boolean) =>
  env.app.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', stream, messages: [{ role: 'user', content: 'hi' }] }),
  })

for (const stream of [false, true]) {
  test(`${stream ? 'a stream' : 'an answer'} carries the overhead, without the upstream's wait`, async () => {
    env.upstream.setBehavior({ text: 'hello', firstByteDelayMs: 150 })
    const t0 = performance.now()
    const res = await chat(stream)
    const elapsed = performance.now() - t0
    await res.text()
    const overhead = Number(res.headers.get('x-tollgate-overhead-ms'))
    expect(overhead).toBeGreaterThan(0)
    expect(elapsed).toBeGreaterThanOrEqual(150)
    expect(overhead).toBeLessThan(elapsed - 140)
  })
}
