/**
 * Coding Plans (new-api's `kimi-coding-plan`, `doubao-coding-plan`): a channel of the vendor's type given the plan's
 * word or base URL sends each client to the plan's own endpoint, with the key in the header that endpoint takes,
 * and never to the pay-as-you-go paths. The plan hosts are sent to fakes through PROVIDER_ENDPOINTS, which answer
 * only on the plan's paths.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { addUser } from '../helpers/accounts'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'
import { userHeaders } from '../modules/channels/helpers'

const KEY = 'sk-plan-0123456789abcdef'
const PLANS = [
  {
    label: 'Kimi', type: 25, word: 'kimi-coding-plan', host: 'api.kimi.com', base: 'https://api.kimi.com/coding', model: 'kimi-for-coding',
    anthropic: '/coding/v1/messages', chat: '/coding/v1/chat/completions', anthropicAuth: 'x-api-key' as const,
  },
  {
    label: 'Doubao', type: 45, word: 'doubao-coding-plan', host: 'ark.cn-beijing.volces.com', base: 'https://ark.cn-beijing.volces.com/api/coding', model: 'doubao-seed-code-preview-latest',
    anthropic: '/api/coding/v1/messages', chat: '/api/coding/v3/chat/completions', anthropicAuth: 'bearer' as const,
  },
]

const fakes = new Map<string, FakeUpstream>()
let app: TestApp
let admin: Record<string, string>
let apiKey: string

beforeAll(async () => {
  for (const plan of PLANS) {
    fakes.set(plan.label, await startFakeUpstream({
      keys: [KEY],
      behavior: { text: `from the ${plan.label} plan`, usage: { input: 9, output: 4 } },
      vendor: { paths: { [plan.anthropic]: '/v1/messages', [plan.chat]: '/v1/chat/completions' }, auth: { anthropic: plan.anthropicAuth, 'openai-chat': 'bearer' } },
    }))
  }
  const endpoints = Object.fromEntries(PLANS.map((plan) => [plan.host, fakes.get(plan.label)!.url]))
  app = await startTestApp({ PROVIDER_ENDPOINTS: JSON.stringify(endpoints) })
  await app.deps.options.set('ChannelPrivateNetworksAllowed', true)
  admin = await userHeaders(app)
  const user = await addUser(app, { username: 'plan-user', quota: 10_000_000 })
  apiKey = (await createToken(app.deps, { user, fields: { name: 'plans', unlimited_quota: true } as TokenFieldsInput })).key
})
afterAll(async () => {
  await app.stop()
  for (const fake of fakes.values()) await fake.stop()
})

describe.each(PLANS)('$label Coding Plan', (plan) => {
  let channelId: number
  const fake = () => fakes.get(plan.label)!

  test("new-api's word in base_url is stored as the plan's base URL", async () => {
    const res = await call(app, 'POST', '/api/channel/', { type: plan.type, name: plan.word, key: KEY, base_url: plan.word, models: plan.model }, admin)
    expect(res.body.success, JSON.stringify(res.body)).toBe(true)
    const row = (await app.deps.repos.channels.all()).find((c) => c.name === plan.word)!
    expect(row.baseUrl).toBe(plan.base)
    channelId = row.id
  })

  test("Claude Code's request passes through untouched to the plan's Anthropic endpoint", async () => {
    fake().reset()
    const raw = `{"model":"${plan.model}",  "max_tokens":32,"messages":[{"role":"user","content":"héllo"}]}`
    const res = await app.fetch('/v1/messages', { method: 'POST', headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body: raw })
    const body = (await res.json()) as any
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.content[0].text).toBe(`from the ${plan.label} plan`)
    const [sent] = fake().requests.filter((r) => r.kind === 'generate')
    expect(sent!.path).toBe(plan.anthropic)
    expect(sent!.body).toBe(raw)
  })

  test("an OpenAI client reaches the plan's chat completions, never the pay-as-you-go path", async () => {
    fake().reset()
    const res = await app.fetch('/v1/chat/completions', {
      method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: plan.model, messages: [{ role: 'user', content: 'hi' }] }),
    })
    const body = (await res.json()) as any
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.choices[0].message.content).toBe(`from the ${plan.label} plan`)
    expect(fake().requests.map((r) => r.path)).toEqual([plan.chat])
    expect(fake().requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  test("fetch_models says the plan has no list and names the plan's models", async () => {
    const res = await call(app, 'GET', `/api/channel/fetch_models/${channelId}`, undefined, admin)
    expect(res.status).toBe(400)
    expect(res.body.data?.code ?? res.body.code).toBe('no_model_list')
    expect(res.body.message).toContain(plan.model)
  })
})
