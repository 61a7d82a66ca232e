import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { startHardeningEnv } from './env'

/**
 * Elysia reads a request's path from the 12th character of its URL on (`url.indexOf('/', 11)`), which assumes a
 * host of four characters or more: for `Host: llm` (a compose service name) the URL is `http://llm/v1/models/x`,
 * and on a dynamic route or an error Elysia's `path` is `/models/x`, a segment late, while the route that runs is
 * still the right one. What decides by path reads it from the URL (src/plugins/url-path.ts): the key's sources,
 * the error's shape. Bun builds the URL from the Host header, so any client can choose a short one.
 */
let env: RelayEnv
beforeAll(async () => {
  env = await startHardeningEnv()
  await env.addChannel({ type: 1 })
})
afterAll(() => env.stop())

for (const host of ['a', 'llm', 'abcd']) {
  test(`Host: ${host}: a model read by id takes Anthropic's x-api-key, as on any other host`, async () => {
    const res = await env.app.fetch('/v1/models/gpt-4o', { headers: { host, 'x-api-key': env.key, 'anthropic-version': '2023-06-01' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: 'gpt-4o' })
  })

  test(`Host: ${host}: a Gemini error keeps Gemini's shape`, async () => {
    const res = await env.app.fetch('/v1beta/models/gpt-4o:generateContent', { method: 'POST', headers: { host, 'content-type': 'application/json' }, body: '{}' })
    expect(res.status).toBe(401)
    const body = (await res.json()) as { error?: { code: number; status: string } }
    expect(body.error?.code).toBe(401)
    expect(typeof body.error?.status).toBe('string')
  })
}
