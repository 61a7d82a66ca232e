/** The fake Bedrock runtime: what it checks (signatures, API keys, bodies) and what it answers, on real HTTP. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { collect, emptyRequest, type IrRequest, type StreamEvent } from '../../../src/ir/index.ts'
import { signBedrockRequest } from '../../../src/providers/signing/sigv4.ts'
import { anthropic } from '../../../src/protocols/anthropic/index.ts'
import { bedrockConverse } from '../../../src/protocols/bedrock-converse/index.ts'
import { bedrockInvoke, bedrockInvokeBody } from '../../../src/protocols/bedrock-invoke/index.ts'
import { AwsEventStreamParser } from '../../../src/protocols/framing/aws-event-stream.ts'
import { startFakeBedrock, type FakeBedrock } from './bedrock'

const KEY_ID = 'AKIAFAKEBEDROCK00001'
const SECRET = 'fake/secret+key/0123456789abcdefghijklmn'
const KEY = `${KEY_ID}|${SECRET}|eu-west-1`
const API_KEY = 'ABSKQmVkcm9ja0FQSUtleS1mYWtl'
const MODEL = 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0'

let bedrock: FakeBedrock
beforeAll(async () => {
  bedrock = await startFakeBedrock({ region: 'eu-west-1', credentials: { [KEY_ID]: SECRET }, apiKeys: [API_KEY] })
})
afterAll(() => bedrock.stop())
beforeEach(() => bedrock.reset())

/** The response body's chunks as they arrive. */
async function* chunks(res: Response): AsyncGenerator<Uint8Array> {
  const reader = res.body!.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    yield value
  }
}

const pathOf = (template: string, model = MODEL) => template.replace('{model}', encodeURIComponent(model))

async function send(template: string, body: unknown, key = KEY, tamper?: (headers: Record<string, string>) => string | undefined): Promise<Response> {
  const url = bedrock.url + pathOf(template)
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const headers = await signBedrockRequest({ method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: text }, key)
  return fetch(url, { method: 'POST', headers, body: tamper?.(headers) ?? text })
}

const ir = (over: Partial<IrRequest> = {}): IrRequest => ({
  ...emptyRequest(MODEL),
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  maxOutputTokens: 2000,
  ...over,
})

async function streamEvents(res: Response): Promise<StreamEvent[]> {
  expect(res.headers.get('content-type')).toBe('application/vnd.amazon.eventstream')
  const parser = new AwsEventStreamParser()
  const dec = bedrockConverse.createStreamDecoder()
  const out: StreamEvent[] = []
  for await (const chunk of chunks(res)) for (const ev of parser.push(chunk)) out.push(...dec.push(ev))
  expect(parser.invalid).toBeUndefined()
  return [...out, ...dec.end()]
}

describe('authentication', () => {
  test('a SigV4-signed request for a model id with a colon is accepted and recorded', async () => {
    const res = await send(bedrockConverse.paths.request, bedrockConverse.encodeRequest(ir()).value)
    expect(res.status).toBe(200)
    const rec = bedrock.requests[0]!
    expect(rec).toMatchObject({ operation: 'converse', model: MODEL, auth: 'sigv4', path: `/model/${encodeURIComponent(MODEL)}/converse` })
    expect(rec.signedHeaders).toEqual(['accept', 'host', 'x-amz-date'])
    expect(rec.headers['authorization']).toContain(`Credential=${KEY_ID}/`)
  })

  test("Bedrock's 403s: wrong secret, unknown key id, altered body, wrong region", async () => {
    const cases: [Promise<Response>, string, string][] = [
      [send(bedrockConverse.paths.request, {}, `${KEY_ID}|not-the-secret|eu-west-1`), 'InvalidSignatureException', 'The request signature we calculated does not match'],
      [send(bedrockConverse.paths.request, {}, `AKIAUNKNOWN|${SECRET}|eu-west-1`), 'UnrecognizedClientException', 'The security token included in the request is invalid.'],
      [send(bedrockConverse.paths.request, { messages: [] }, KEY, () => '{"messages":[1]}'), 'InvalidSignatureException', 'The request signature we calculated does not match'],
      [send(bedrockConverse.paths.request, {}, `${KEY_ID}|${SECRET}|us-east-1`), 'InvalidSignatureException', 'Credential should be scoped to a valid region.'],
    ]
    for (const [pending, type, message] of cases) {
      const res = await pending
      expect(res.status).toBe(403)
      expect(res.headers.get('x-amzn-errortype')).toStartWith(`${type}:`)
      const body = (await res.json()) as { message: string }
      expect(body.message).toStartWith(message)
      expect(bedrockConverse.parseError(403, body).message).toStartWith(message)
    }
    const unsigned = await fetch(bedrock.url + pathOf(bedrockConverse.paths.request), { method: 'POST', body: '{}' })
    expect(unsigned.status).toBe(403)
  })

  test('Bedrock API keys as bearer tokens', async () => {
    expect((await send(bedrockConverse.paths.request, bedrockConverse.encodeRequest(ir()).value, `${API_KEY}|eu-west-1`)).status).toBe(200)
    expect(bedrock.requests[0]!.auth).toBe('bearer')
    const wrong = await send(bedrockConverse.paths.request, {}, 'ABSKwrong|eu-west-1')
    expect([wrong.status, await wrong.json()]).toEqual([403, { Message: 'Authentication failed: Please make sure your API Key is valid.' }])
    const format = await send(bedrockConverse.paths.request, {}, 'sk-not-bedrock|eu-west-1')
    expect(await format.json()).toEqual({ Message: 'Invalid API Key format: Must start with pre-defined prefix' })
  })
})

describe('converse', () => {
  const tools: Partial<IrRequest> = {
    tools: [{ kind: 'function', name: 'Bash', parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
    reasoning: { enabled: true, budgetTokens: 1024 },
  }

  test('non-stream: text, reasoning and parallel tool calls decode; usage with cache', async () => {
    bedrock.setBehavior({ text: 'Two calls.', reasoning: 'hmm', signature: 'SIG', toolCalls: [{ name: 'Bash', arguments: { command: 'ls' } }, { name: 'Bash', arguments: { command: 'pwd' } }], usage: { input: 5, cacheRead: 100, cacheWrite: 7, output: 30 } })
    const res = await send(bedrockConverse.paths.request, bedrockConverse.encodeRequest(ir(tools)).value)
    const { value } = bedrockConverse.decodeResponse(await res.json())
    expect(value.parts.map((p) => p.type)).toEqual(['reasoning', 'text', 'tool-call', 'tool-call'])
    expect(value.parts[0]).toEqual({ type: 'reasoning', text: 'hmm', signature: 'SIG', origin: 'bedrock-converse' })
    expect(value.finish.unified).toBe('tool_calls')
    expect(value.usage).toEqual({ input: { noCache: 5, cacheRead: 100, cacheWrite: 7 }, output: { text: 30, reasoning: 0 } })
  })

  test('stream: real event-stream frames decode to the same answer; the tool round trip is accepted', async () => {
    bedrock.setBehavior({ text: ['Run', 'ning.'], reasoning: ['a', 'b'], signature: 'SIG2', toolCalls: [{ id: 'tooluse_1', name: 'Bash', arguments: { command: 'ls' }, fragments: ['{"command"', ':"ls"}'] }] })
    const first = collect(await streamEvents(await send(bedrockConverse.paths.stream, bedrockConverse.encodeRequest(ir(tools)).value)))
    expect(bedrock.requests[0]!.operation).toBe('converse-stream')
    expect(first.parts).toEqual([
      { type: 'reasoning', text: 'ab', signature: 'SIG2', origin: 'bedrock-converse' },
      { type: 'text', text: 'Running.' },
      { type: 'tool-call', id: 'tooluse_1', name: 'Bash', arguments: '{"command":"ls"}' },
    ])
    bedrock.setBehavior({ text: 'Done.' })
    const next = ir({
      ...tools,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: first.parts },
        { role: 'tool', content: [{ type: 'tool-result', callId: 'tooluse_1', content: [{ type: 'text', text: 'a.txt' }] }] },
      ],
    })
    const res = await send(bedrockConverse.paths.stream, bedrockConverse.encodeRequest(next).value)
    expect(collect(await streamEvents(res)).parts).toEqual([{ type: 'text', text: 'Done.' }])
    expect(bedrock.requests[1]!.json.messages[1].content[0]).toEqual({ reasoningContent: { reasoningText: { text: 'ab', signature: 'SIG2' } } })
  })

  test('Bedrock refuses what it refuses: model in the body, a tool result without toolConfig', async () => {
    const withModel = await send(bedrockConverse.paths.request, { model: MODEL, messages: [{ role: 'user', content: [{ text: 'hi' }] }] })
    expect(withModel.status).toBe(400)
    expect(withModel.headers.get('x-amzn-errortype')).toStartWith('ValidationException:')
    expect(((await withModel.json()) as { message: string }).message).toContain('extraneous key [model]')
    const noConfig = await send(bedrockConverse.paths.request, {
      messages: [
        { role: 'user', content: [{ text: 'hi' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't', name: 'x', input: {} } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 't', content: [{ text: 'r' }] } }] },
      ],
    })
    expect(await noConfig.json()).toEqual({ message: 'The toolConfig field must be defined when using toolUse and toolResult content blocks.' })
  })

  test('scripted failures: an HTTP error, an exception inside the stream, a cut stream', async () => {
    bedrock.setBehavior({ error: { status: 429 } })
    const limited = await send(bedrockConverse.paths.request, bedrockConverse.encodeRequest(ir()).value)
    expect(bedrockConverse.parseError(limited.status, await limited.text())).toEqual({ status: 429, code: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' })
    bedrock.setBehavior({ streamError: { type: 'throttlingException', message: 'slow down' } })
    const thrown = await streamEvents(await send(bedrockConverse.paths.stream, bedrockConverse.encodeRequest(ir()).value))
    expect(thrown.at(-1)).toEqual({ type: 'error', error: { status: 429, code: 'throttlingException', message: 'slow down' } })
    bedrock.setBehavior({ text: 'abcdef', cutAfter: 2 })
    const res = await send(bedrockConverse.paths.stream, bedrockConverse.encodeRequest(ir()).value)
    const parser = new AwsEventStreamParser()
    const dec = bedrockConverse.createStreamDecoder()
    const events: StreamEvent[] = []
    await expect(
      (async () => {
        for await (const chunk of chunks(res)) for (const ev of parser.push(chunk)) events.push(...dec.push(ev))
      })(),
    ).rejects.toThrow()
    expect([...events, ...dec.end()].at(-1)).toMatchObject({ type: 'error', error: { code: 'upstream_incomplete' } })
  })
})

describe('invoke', () => {
  const claudeCode = { model: 'claude-sonnet-4-5', max_tokens: 4000, stream: true, metadata: { user_id: 'u' }, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] }

  test("Claude Code's body as sent by a client is refused; reshaped by bedrockInvokeBody it is answered", async () => {
    const raw = await send(bedrockInvoke.paths.request, claudeCode)
    expect(((await raw.json()) as { message: string }).message).toBe(
      'Malformed input request: #: extraneous key [model] is not permitted#: extraneous key [stream] is not permitted#: extraneous key [metadata] is not permitted#: required key [anthropic_version] not found, please reformat your input and try again.',
    )
    const badBeta = await send(bedrockInvoke.paths.request, { ...JSON.parse(bedrockInvokeBody(claudeCode, [])), anthropic_beta: ['claude-code-20250219'] })
    expect(await badBeta.json()).toEqual({ message: 'invalid beta flag' })
    bedrock.setBehavior({ text: 'Hi!', reasoning: 'hmm', signature: 'SIG-A', usage: { input: 9, cacheRead: 50, output: 12 } })
    const warnings: string[] = []
    const res = await send(bedrockInvoke.paths.request, bedrockInvokeBody(claudeCode, warnings, 'interleaved-thinking-2025-05-14,claude-code-20250219'))
    expect(res.status).toBe(200)
    expect(bedrock.requests.at(-1)!.json.anthropic_beta).toEqual(['interleaved-thinking-2025-05-14'])
    const { value } = anthropic.decodeResponse(await res.json())
    expect(value.id).toStartWith('msg_bdrk_')
    expect(value.parts).toEqual([{ type: 'reasoning', text: 'hmm', signature: 'SIG-A', origin: 'anthropic' }, { type: 'text', text: 'Hi!' }])
    expect(value.usage).toEqual({ input: { noCache: 9, cacheRead: 50, cacheWrite: 0 }, output: { text: 12, reasoning: 0 } })
  })

  test('invoke-with-response-stream: chunks carry Anthropic events the Anthropic decoder and tap read', async () => {
    bedrock.setBehavior({ text: ['He', 'llo'], reasoning: 'hmm', signature: 'SIG-B', toolCalls: [{ id: 'toolu_1', name: 'Bash', arguments: { command: 'ls' } }], usage: { input: 3, cacheWrite: 40, output: 25 } })
    const res = await send(bedrockInvoke.paths.stream, bedrockInvokeBody(claudeCode, []))
    expect(res.headers.get('content-type')).toBe('application/vnd.amazon.eventstream')
    const parser = bedrockInvoke.createStreamParser()
    const dec = anthropic.createStreamDecoder()
    const tap = anthropic.createUsageTap()
    const events: StreamEvent[] = []
    for await (const chunk of chunks(res))
      for (const ev of parser.push(chunk)) {
        tap.push(ev)
        events.push(...dec.push(ev))
      }
    expect(parser.invalid).toBeUndefined()
    const answer = collect([...events, ...dec.end()])
    expect(answer.parts).toEqual([
      { type: 'reasoning', text: 'hmm', signature: 'SIG-B', origin: 'anthropic' },
      { type: 'text', text: 'Hello' },
      { type: 'tool-call', id: 'toolu_1', name: 'Bash', arguments: '{"command":"ls"}' },
    ])
    expect(answer.finish.unified).toBe('tool_calls')
    expect(tap.usage()).toEqual({ input: { noCache: 3, cacheRead: 0, cacheWrite: 40 }, output: { text: 25, reasoning: 0 } })
  })
})
