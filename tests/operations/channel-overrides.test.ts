import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startOperationsEnv, type OperationsEnv } from './env'

/** Operations (embeddings here) go through the channel's header override and status mapping as chat does. */
let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.env.app.deps.options.set('ModelRatio', { 'ov-embed': 0.01, 'ov-embed-map': 0.01 })
})
afterAll(() => o.stop())

test('an embeddings call carries the header override, {api_key} filled', async () => {
  await o.channel(1, 'ov-embed', { headerOverride: JSON.stringify({ 'X-Key-Echo': '{api_key}!' }) })
  await o.openai.embeddings.create({ model: 'ov-embed', input: 'hi' })
  expect(o.up.requests.at(-1)!.headers['x-key-echo']).toBe('sk-operations-upstream-key-42!')
})

test('a mapped 400 (a channel whose key the upstream refuses with 400) fails over to the next channel', async () => {
  // Gemini answers a wrong key with 400 (INVALID_ARGUMENT): unmapped, that would end the request
  await o.channel(24, 'ov-embed-map', { priority: 10, keyText: 'wrong-key', statusCodeMapping: JSON.stringify({ 400: 503 }) })
  await o.channel(1, 'ov-embed-map', { priority: 0 })
  const res = await o.openai.embeddings.create({ model: 'ov-embed-map', input: 'hi' })
  expect(res.data).toHaveLength(1)
  const outcome = o.env.outcomes.at(-1)!
  expect(outcome.attempts.map((a) => a.status)).toEqual([503, 200])
  expect(outcome.attempts[0]!.error).toContain('upstream 400 (read as 503)')
})
