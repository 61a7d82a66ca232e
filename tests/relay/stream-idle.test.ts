import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { until } from '../helpers/wait'

let env: RelayEnv
beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
  await env.app.deps.options.set('RelayStreamIdleSeconds', 1)
})
afterAll(() => env.stop())

test('an upstream that falls silent after its first content is given up on: the client gets an error event and the stream ends', async () => {
  env.upstream.setBehavior({ text: ['one', 'two', 'three', 'four'], stall: 4 })
  const started = performance.now()
  const res = await env.app.fetch('/v1/messages', {
    method: 'POST',
    headers: { 'x-api-key': env.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  })
  expect(res.status).toBe(200)
  const text = await res.text()
  const elapsed = performance.now() - started
  expect(elapsed).toBeGreaterThan(900)
  // the upstream stalls until the test ends: what shows the idle limit ended it is the gateway's own count of the
  // silence below, not the wall clock (a loaded machine took 4-11 s here); 30 s is a hang detector
  expect(elapsed).toBeLessThan(30_000)
  expect(text).toContain('event: error')
  expect(text).toMatch(/no data from the upstream for \d+ s/)
  await until(() => env.outcomes.length > 0, { what: 'the outcome recorded' })
  const outcome = env.outcomes.at(-1)!
  expect(outcome.ok).toBe(false)
  expect(outcome.error).toContain('no data from the upstream')
}, 60_000) // bun 1.4.5 ignores bunfig's timeout: 5 s would be the real deadline
