import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parseSseText } from '../../src/protocols/sse'
import { fakeFill, fakePromptTokens } from '../helpers/fake-upstreams/completions'
import { account, logsOf, settled, userRow } from '../metering/env'
import { OP_KEY, startOperationsEnv, type OperationsEnv } from './env'

let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(43, 'deepseek-chat')
  await o.channel(42, 'codestral-latest')
})
afterAll(() => o.stop())

const post = (path: string, key: string, body: unknown) =>
  o.env.app.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

async function lastRow(userId: number, count: number) {
  await settled(o.env, count)
  return (await logsOf(o.env, userId)).at(-1)!
}

// What Continue's autocomplete sends through its DeepSeek provider (core/llm/llms/Deepseek.ts `_streamFim`)
const continueBody = (prompt: string, suffix: string) => ({ model: 'deepseek-chat', prompt, suffix, max_tokens: 128, temperature: 0.01, stop: ['\n\n'], stream: true })

describe('fill-in-the-middle through DeepSeek (its /beta/completions)', () => {
  test("Continue's FIM at /v1/beta/completions streams the middle; DeepSeek's cache hits are billed as cache reads", async () => {
    const { user, key } = await account(o.env, 10_000_000)
    const count = o.env.outcomes.length
    const prompt = '[cached] def add(a, b):\n    '
    const suffix = '\n\nprint(add(1, 2))'
    const res = await post('/v1/beta/completions', key, continueBody(prompt, suffix))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/event-stream')
    const events = parseSseText(await res.text())
    expect(events.at(-1)!.data).toBe('[DONE]')
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data))
    expect(chunks.map((c) => c.choices[0].text).join('')).toBe(fakeFill(prompt, suffix, 128).words.join(''))
    expect(chunks.every((c) => c.object === 'text_completion' && !c.usage)).toBe(true)
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/beta/completions')
    expect(sent.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    expect(sent.json).toEqual({ ...continueBody(prompt, suffix), stream_options: { include_usage: true } })
    const row = await lastRow(user.id, count + 1)
    const promptTokens = fakePromptTokens(prompt, suffix)
    expect(row).toMatchObject({ modelName: 'deepseek-chat', promptTokens, cacheReadTokens: Math.floor(promptTokens / 2), completionTokens: 4 })
    // deepseek-chat: US$0.28 in, 0.028 cache hit, 0.42 out per million; at these sizes, the least charge
    expect(row.quota).toBe(1)
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000 - 1)
  })

  test('the same at /v1/completions, not streamed', async () => {
    const res = await post('/v1/completions', o.env.key, { model: 'deepseek-chat', prompt: 'a', suffix: 'b', max_tokens: 2 })
    expect(res.status).toBe(200)
    const json = (await res.json()) as any
    expect(json.choices[0]).toMatchObject({ text: fakeFill('a', 'b', 2).words.join(''), finish_reason: 'length' })
    expect(o.up.requests.at(-1)!.path).toBe('/beta/completions')
  })

  test("DeepSeek's own refusal (max_tokens above 4096) comes back as a 400", async () => {
    const res = await post('/v1/completions', o.env.key, { model: 'deepseek-chat', prompt: 'a', max_tokens: 5000 })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.message).toContain('max_tokens')
  })
})

describe('fill-in-the-middle through Mistral (Codestral, /v1/fim/completions)', () => {
  test('answered in the completions shape; only the fields Mistral takes are sent, seed as random_seed', async () => {
    const { user, key } = await account(o.env, 10_000_000)
    const count = o.env.outcomes.length
    const body = { model: 'codestral-latest', prompt: 'def f(', suffix: '):\n  pass', max_tokens: 2, temperature: 0.2, seed: 42, presence_penalty: 0, user: 'u1' }
    const res = await post('/v1/completions', key, body)
    expect(res.status).toBe(200)
    const json = (await res.json()) as any
    const fill = fakeFill(body.prompt, body.suffix, 2)
    expect(json).toMatchObject({ id: 'fim-mistral-1', object: 'text_completion', model: 'codestral-latest' })
    expect(json.choices).toEqual([{ text: fill.words.join(''), index: 0, logprobs: null, finish_reason: 'length' }])
    expect(json.usage).toEqual({ prompt_tokens: fakePromptTokens(body.prompt, body.suffix), completion_tokens: 2, total_tokens: fakePromptTokens(body.prompt, body.suffix) + 2 })
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1/fim/completions')
    expect(sent.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    expect(sent.json).toEqual({ model: 'codestral-latest', prompt: 'def f(', suffix: '):\n  pass', max_tokens: 2, temperature: 0.2, random_seed: 42 })
    // codestral ships at US$0.3 in, 0.9 out per million: 4 × 0.15 + 2 × 0.45 = 1.5 quota, rounded
    const row = await lastRow(user.id, count + 1)
    expect(row).toMatchObject({ modelName: 'codestral-latest', promptTokens: json.usage.prompt_tokens, completionTokens: 2, quota: 2 })
  })

  test('streamed: Mistral chunks become text_completion chunks, echo puts the prompt first, the usage chunk comes when asked', async () => {
    const res = await post('/v1/completions', o.env.key, { model: 'codestral-latest', prompt: 'let x = ', stream: true, echo: true, stream_options: { include_usage: true } })
    expect(res.status).toBe(200)
    const events = parseSseText(await res.text())
    expect(events.at(-1)!.data).toBe('[DONE]')
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data))
    const usage = chunks.at(-1)
    expect(usage.choices).toEqual([])
    expect(usage.usage).toEqual({ prompt_tokens: fakePromptTokens('let x = '), completion_tokens: 4, total_tokens: fakePromptTokens('let x = ') + 4 })
    const content = chunks.slice(0, -1)
    expect(content.every((c) => c.object === 'text_completion' && c.choices[0].logprobs === null)).toBe(true)
    expect(content.map((c) => c.choices[0].text).join('')).toBe('let x = ' + fakeFill('let x = ').words.join(''))
    expect(content.at(-1).choices[0].finish_reason).toBe('stop')
    const sent = o.up.requests.at(-1)!.json
    // no max_tokens from the client: sent with the cap metering reserved (DefaultMaxOutputTokens: no table names codestral)
    expect(sent).toEqual({ model: 'codestral-latest', prompt: 'let x = ', stream: true, max_tokens: 4096 })
  })

  test('without include_usage no usage chunk reaches the client', async () => {
    const res = await post('/v1/completions', o.env.key, { model: 'codestral-latest', prompt: 'a', stream: true })
    const chunks = parseSseText(await res.text()).slice(0, -1).map((e) => JSON.parse(e.data))
    expect(chunks.every((c) => c.choices.length === 1 && !c.usage)).toBe(true)
  })

  test('what Mistral cannot do is a 400 naming the field, and nothing is sent or charged', async () => {
    const { user, key } = await account(o.env, 1_000_000)
    const before = o.up.requests.length
    for (const [body, param] of [
      [{ prompt: 'a', n: 2 }, 'n'],
      [{ prompt: 'a', best_of: 3 }, 'best_of'],
      [{ prompt: 'a', logprobs: 1 }, 'logprobs'],
      [{ prompt: ['a', 'b'] }, 'prompt'],
      [{ prompt: [1, 2, 3] }, 'prompt'],
    ] as const) {
      const res = await post('/v1/completions', key, { model: 'codestral-latest', ...body })
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).error.param).toBe(param)
    }
    expect(o.up.requests.length).toBe(before)
    expect((await userRow(o.env, user.id)).quota).toBe(1_000_000)
  })

  test("Mistral's 422 list of refused fields is read into the message", async () => {
    o.up.failNext('/v1/fim/completions', 422, { detail: [{ type: 'extra_forbidden', loc: ['body', 'foo'], msg: 'Extra inputs are not permitted' }] })
    const res = await post('/v1/completions', o.env.key, { model: 'codestral-latest', prompt: 'a' })
    expect(res.status).toBe(422)
    expect(((await res.json()) as any).error.message).toContain('foo: Extra inputs are not permitted')
  })
})
