/** An instance with data in every list, shared by the tests that look at the console's pages. */
import { apiLogin, openAIChannel, setupRoot, type FakeUpstream, type Gateway } from './harness'

export const ROOT = { username: 'root', password: 'e2e-root-password-1' }

/** An instance that looks used: two channels (one tagged, one a key pool), a token, traffic, a second user, codes. */
export async function seedUsedInstance(gw: Gateway, upstream: FakeUpstream): Promise<void> {
  await setupRoot(gw, ROOT)
  const root = await apiLogin(gw, ROOT)
  const must = async (method: string, path: string, body?: unknown) => {
    const result = await root.call(method, path, body)
    if (result.status !== 200) throw new Error(`${method} ${path}: ${result.status} ${JSON.stringify(result.body)}`)
    return result.body.data
  }
  await must('POST', '/api/channel/', { ...openAIChannel(upstream, { name: 'openai-main' }), tag: 'fleet-a', priority: 10 })
  await must('POST', '/api/channel/', { ...openAIChannel(upstream, { type: 8, name: 'vllm-lab', models: ['llama-3.1-8b'] }), key: 'sk-one\nsk-two' })
  await must('PUT', '/api/option/', { key: 'RegisterEnabled', value: true })
  const token = await must('POST', '/api/token/', { name: 'laptop', remain_quota: 5_000_000, unlimited_quota: false })
  await must('POST', '/api/token/', { name: 'ci', unlimited_quota: true, model_limits_enabled: true, model_limits: 'gpt-4o-mini' })
  for (const model of ['gpt-4o-mini', 'gpt-4o', 'gpt-4o-mini', 'no-such-model']) {
    await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    })
  }
  await must('POST', '/api/user/', { username: 'alice', password: 'alice-password-1', display_name: 'Alice', quota: 2_500_000 })
  await must('POST', '/api/redemption/', { name: 'welcome', count: 3, quota: 1_000_000 })
}

