import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { isSpliced } from '../../src/ir'
import type { RelayInput } from '../../src/relay/types'
import { WHOLE_BODY_BYTES } from '../../src/relay/body/request-body'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

/**
 * Issue #18, for Gemini CLI: a generateContent body over WHOLE_BODY_BYTES takes the chat routes' large-body path
 * (scanned, only its small top-level values parsed before dispatch), as /v1/messages and the OpenAI routes do:
 * passthrough forwards the bytes, conversion splices the long texts, bad input is a 400 in Gemini's shape before
 * any upstream call. countTokens and the embeddings still read their bodies whole.
 */
let env: RelayEnv
beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 24, models: 'gemini-2.5-flash', autoBan: 0 })
  await env.addChannel({ type: 1, models: 'gpt-4.1-mini', autoBan: 0 })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

/** a Gemini CLI turn grown with file reads: a function call and its response per read, then the user's question */
function turn(reads = 30): Record<string, any> {
  const contents: unknown[] = [{ role: 'user', parts: [{ text: 'look at the sources' }] }]
  for (let i = 0; i < reads; i++) {
    contents.push({ role: 'model', parts: [{ functionCall: { name: 'read_file', args: { path: `src/file-${i}.ts` } } }] })
    contents.push({ role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: `// file ${i}\n${'export const x = "é 中";\n'.repeat(60)}` } } }] })
  }
  contents.push({ role: 'user', parts: [{ text: `now explain: ${'why does it work? '.repeat(200)}` }] })
  return {
    contents,
    systemInstruction: { parts: [{ text: `You are a coding agent. ${'Follow the rules. '.repeat(300)}` }] },
    tools: [{ functionDeclarations: [{ name: 'read_file', description: 'reads a file', parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } } } }] }],
    generationConfig: { temperature: 0.2, maxOutputTokens: 1000 },
  }
}
/** pretty-printed, so the bytes differ from what any re-serialisation would give */
const raw = (value: unknown) => JSON.stringify(value, null, 1)

function generate(model: string, text: string, action = 'generateContent'): Promise<Response> {
  return env.app.fetch(`/v1beta/models/${model}:${action}`, { method: 'POST', headers: { 'x-goog-api-key': env.key, 'content-type': 'application/json' }, body: text })
}

const whole = (i: number) => (env.outcomes[i]!.input as RelayInput).body.whole

describe('a large Gemini body', () => {
  test('passthrough: not parsed before dispatch, the upstream receives the bytes as sent', async () => {
    const text = raw(turn())
    expect(Buffer.byteLength(text)).toBeGreaterThan(WHOLE_BODY_BYTES)
    const res = await generate('gemini-2.5-flash', text)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(env.upstream.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent')
    expect(env.upstream.requests[0]!.body).toBe(text)
    expect(whole(0)).toBe(false)
  })

  test('a stream (the model and the stream flag from the path)', async () => {
    env.upstream.setBehavior({ text: ['a', 'b'] })
    const res = await env.app.fetch('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { method: 'POST', headers: { 'x-goog-api-key': env.key }, body: raw(turn()) })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('"text":"b"')
    expect(env.upstream.requests[0]!.path).toContain(':streamGenerateContent')
    expect(whole(0)).toBe(false)
  })

  test('conversion to an OpenAI upstream: every text and function response arrives whole', async () => {
    const value = turn()
    const res = await generate('gpt-4.1-mini', raw(value))
    expect(res.status, await res.clone().text()).toBe(200)
    const sent = env.upstream.requests[0]!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.json.messages[0]).toEqual({ role: 'system', content: value.systemInstruction.parts[0].text })
    expect(sent.json.messages.at(-1)).toEqual({ role: 'user', content: value.contents.at(-1).parts[0].text })
    const tool = sent.json.messages.find((m: { role: string }) => m.role === 'tool')
    expect(tool.content).toBe(value.contents[2].parts[0].functionResponse.response.output)
    expect(whole(0)).toBe(false)
    // converted with its long strings cut, a function response's output (Gemini CLI's tool answers) among them
    const skeleton = (env.outcomes[0]!.input as RelayInput).body.spliced()!.parsed as any
    expect(isSpliced(skeleton.contents[2].parts[0].functionResponse.response.output)).toBe(true)
    expect(isSpliced(skeleton.systemInstruction.parts[0].text)).toBe(true)
  })

  test('bad JSON, or a top-level field of the wrong type: a 400 in Gemini shape, nothing sent', async () => {
    const text = raw(turn())
    for (const [bad, says] of [[text.slice(0, -3), 'not valid JSON'], [raw({ ...turn(), generationConfig: 'hot' }), 'generationConfig'], [raw({ ...turn(), contents: 'x'.repeat(40_000) }), 'contents']] as const) {
      const res = await generate('gemini-2.5-flash', bad)
      expect(res.status, says).toBe(400)
      const json = (await res.json()) as { error: { code: number; status: string; message: string } }
      expect(json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' })
      expect(json.error.message).toContain(says)
    }
    expect(env.upstream.requests.length).toBe(0)
  })

  test('countTokens still reads the body whole', async () => {
    const res = await generate('gemini-2.5-flash', raw(turn()), 'countTokens')
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(5_000)
    expect(env.upstream.requests.length).toBe(0)
  })
})
