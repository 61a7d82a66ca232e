import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { until } from '../helpers/wait'

/**
 * Every relay answer carries its request id in `x-request-id`, once. The pipeline's own Responses set it
 * themselves (the relay handlers leave it out of Elysia's `set.headers` so the Response is not copied);
 * everything else gets it from request-context.
 */
let env: RelayEnv
beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o' })
  await env.addChannel({ type: 24, models: 'gemini-2.5-flash' })
})
afterAll(() => env.stop())

const json = { 'content-type': 'application/json' }
const chat = (stream: boolean) => JSON.stringify({ model: 'gpt-4o', stream, messages: [{ role: 'user', content: 'hi' }] })
const gemini = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })

const generations: [string, string, Record<string, string>, string][] = [
  ['chat', '/v1/chat/completions', { authorization: 'Bearer KEY' }, chat(false)],
  ['chat stream', '/v1/chat/completions', { authorization: 'Bearer KEY' }, chat(true)],
  ['gemini', '/v1beta/models/gemini-2.5-flash:generateContent', { 'x-goog-api-key': 'KEY' }, gemini],
  ['gemini stream (SSE)', '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { 'x-goog-api-key': 'KEY' }, gemini],
  ['gemini stream (JSON array)', '/v1beta/models/gemini-2.5-flash:streamGenerateContent', { 'x-goog-api-key': 'KEY' }, gemini],
]
for (const [name, path, headers, body] of generations) {
  test(`${name}: the answer carries the id the pipeline was given`, async () => {
    env.outcomes.length = 0
    const withKey = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('KEY', env.key)]))
    const res = await env.app.fetch(path, { method: 'POST', headers: { ...json, ...withKey }, body })
    await res.text()
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')
    expect(id).toMatch(/^req_[0-9a-f-]+$/)
    await until(() => env.outcomes.length > 0, { what: 'the outcome recorded' })
    expect(env.outcomes.at(-1)?.input.requestId).toBe(id!)
  })
}

test('answers that are not the pipeline Response carry an id too', async () => {
  const models = await env.app.fetch('/v1/models', { headers: { authorization: `Bearer ${env.key}` } })
  const count = await env.app.fetch('/v1/messages/count_tokens', {
    method: 'POST',
    headers: { ...json, 'x-api-key': env.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  })
  const probe = await env.app.fetch('/', { method: 'HEAD' })
  for (const res of [models, count, probe]) {
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toMatch(/^req_/)
  }
})
