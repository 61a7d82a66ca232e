import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { RelayInput } from '../../src/relay/types'
import { bodyLimits, WHOLE_BODY_BYTES } from '../../src/relay/body/request-body'
import { agentBody } from '../helpers/agent-body'
import { blobReads } from '../helpers/blob-reads'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

/**
 * Issue #18: a body over WHOLE_BODY_BYTES is not parsed before dispatch. Passthrough forwards its bytes as they
 * came (patched only where the protocol patches), and everything the relay promised for small bodies holds:
 * bad JSON and bad top-level fields are a 400 in the client's shape before any upstream call, the token's
 * model limits apply, conversion and failover decode the body when they need it.
 */
let env: RelayEnv
beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 14, name: 'anthropic', models: 'claude-sonnet-4-5', autoBan: 0 })
  await env.addChannel({ type: 14, name: 'mapped', models: 'claude-mapped', modelMapping: JSON.stringify({ 'claude-mapped': 'claude-upstream-name' }), autoBan: 0 })
  await env.addChannel({ type: 1, name: 'openai', models: 'gpt-4o,claude-via-openai', autoBan: 0 })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

const body = (extra: Record<string, unknown> = {}): Record<string, any> => ({ ...agentBody(120_000), stream: false, ...extra })
/** a long conversation any upstream takes (the agent body's first tool result comes last, which OpenAI refuses) */
const plain = (model: string) => ({
  model,
  max_tokens: 100,
  messages: Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: ${'lorem ipsum '.repeat(300)}` })),
})
/** pretty-printed, so the bytes differ from what any re-serialisation would give */
const raw = (value: unknown) => JSON.stringify(value, null, 1)

function messages(text: string, key = env.key): Promise<Response> {
  return env.app.fetch('/v1/messages', { method: 'POST', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body: text })
}

function chat(text: string): Promise<Response> {
  return env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' }, body: text })
}

async function anthropicError(res: Response): Promise<string> {
  const json = (await res.json()) as { type: string; error: { type: string; message: string } }
  expect(json.type).toBe('error')
  expect(json.error.type).toBe('invalid_request_error')
  return json.error.message
}

describe('passthrough forwards the bytes', () => {
  test('the upstream receives the client bytes as sent', async () => {
    const text = raw(body())
    expect(Buffer.byteLength(text)).toBeGreaterThan(WHOLE_BODY_BYTES)
    const res = await messages(text)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(env.upstream.requests[0]!.body).toBe(text)
  })

  test('a mapped model: only the model value changes, every other byte stays', async () => {
    const text = raw(body({ model: 'claude-mapped' }))
    const res = await messages(text)
    expect(res.status).toBe(200)
    expect(env.upstream.requests[0]!.body).toBe(text.replace('"model": "claude-mapped"', '"model": "claude-upstream-name"'))
  })

  test('a signed thinking block stays as sent; an unsigned one is dropped, the rest kept', async () => {
    const signed = body()
    signed.messages.splice(1, 0, { role: 'assistant', content: [{ type: 'thinking', thinking: 'let me look', signature: 'c2lnbmVk' }, { type: 'text', text: 'ok' }] }, { role: 'user', content: 'go on' })
    const text = raw(signed)
    expect((await messages(text)).status).toBe(200)
    expect(env.upstream.requests[0]!.body).toBe(text)

    const unsigned = structuredClone(signed)
    unsigned.messages[1].content[0].signature = ''
    const res = await messages(raw(unsigned))
    expect(res.status, await res.clone().text()).toBe(200) // the fake refuses an unsigned thinking block, as Anthropic does
    const sent = env.upstream.requests[1]!.json
    expect(sent.messages[1].content).toEqual([{ type: 'text', text: 'ok' }])
    expect(sent.messages.length).toBe(unsigned.messages.length)
    expect(sent.tools).toEqual(unsigned.tools)
    expect(env.outcomes[1]!.warnings).toContain('dropped a thinking block sent back without a signature')
  })

  test('a chat stream: include_usage asked for, the usage chunk not shown to a client that did not ask', async () => {
    env.upstream.setBehavior({ text: ['a', 'b'], usage: { input: 40, output: 2 } })
    const big = 'x'.repeat(60_000)
    const res = await chat(raw({ model: 'gpt-4o', stream: true, messages: [{ role: 'system', content: big }, { role: 'user', content: 'hi' }] }))
    const text = await res.text()
    expect(res.status).toBe(200)
    expect(text).toContain('"content":"b"')
    expect(text).not.toContain('prompt_tokens') // our usage chunk, dropped again
    const sent = env.upstream.requests[0]!.json
    expect(sent.stream_options).toEqual({ include_usage: true })
    expect(sent.messages[0].content).toBe(big)
    expect(env.outcomes[0]!.usage?.input.noCache).toBe(40)
  })

  test('a BOM is dropped and invalid UTF-8 replaced, as for a small body', async () => {
    const text = raw(body())
    const utf8 = Buffer.from(text)
    const at = utf8.indexOf('Reading ') // inside a text string
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8.subarray(0, at), Buffer.from([0xff]), utf8.subarray(at)])
    const res = await env.app.fetch('/v1/messages', { method: 'POST', headers: { 'x-api-key': env.key, 'anthropic-version': '2023-06-01' }, body: bytes })
    expect(res.status).toBe(200)
    expect(env.upstream.requests[0]!.body).toBe(`${utf8.subarray(0, at)}\uFFFD${utf8.subarray(at)}`)
  })
})

describe('refused before any upstream call, in the client shape', () => {
  test('bad JSON', async () => {
    const text = raw(body())
    for (const bad of [text.slice(0, -5), text + ' x', text.replace('"max_tokens": ', '"max_tokens" '), text.replace('],\n "system"', '],,\n "system"')]) {
      const res = await messages(bad)
      expect(res.status).toBe(400)
      expect(await anthropicError(res)).toContain('not valid JSON')
    }
    expect(env.upstream.requests.length).toBe(0)
  })

  test('a top-level field of the wrong type or missing names the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ max_tokens: '100' }, '"max_tokens"'],
      [{ max_tokens: undefined }, '"max_tokens"'],
      [{ stream: 'yes' }, '"stream"'],
      [{ tool_choice: { name: 'x' } }, '"tool_choice.type"'],
      [{ messages: 'x'.repeat(40_000) }, '"messages"'],
      [{ tools: { many: 'x'.repeat(40_000) } }, '"tools"'],
    ]
    for (const [extra, field] of cases) {
      const res = await messages(raw(body(extra)))
      expect(res.status, field).toBe(400)
      expect(await anthropicError(res)).toContain(field)
    }
    expect(env.upstream.requests.length).toBe(0)
  })

  test('the anthropic-version header and the token model limits', async () => {
    const text = raw(body())
    const noVersion = await env.app.fetch('/v1/messages', { method: 'POST', headers: { 'x-api-key': env.key }, body: text })
    expect(noVersion.status).toBe(400)
    expect(await anthropicError(noVersion)).toContain('anthropic-version')
    const limited = await env.newKey({ model_limits_enabled: true, model_limits: 'gpt-4o' })
    const res = await messages(text, limited)
    expect(res.status).toBe(404)
    expect(env.upstream.requests.length).toBe(0)
  })
})

describe('decoded when needed', () => {
  test('inside messages, passthrough leaves the checking to the upstream, whose 400 names the field', async () => {
    const bad = body()
    bad.messages[3].role = 'robot'
    const res = await messages(raw(bad))
    expect(res.status).toBe(400)
    expect(await anthropicError(res)).toContain('messages.3.role')
    expect(env.upstream.requests.length).toBe(1)
  })

  test('conversion decodes and checks the whole body: a bad field inside messages is our 400, nothing sent', async () => {
    const bad = body({ model: 'claude-via-openai' })
    bad.messages[3].role = 'robot'
    const res = await messages(raw(bad))
    expect(res.status).toBe(400)
    expect(await anthropicError(res)).toContain('messages.3.role')
    expect(env.upstream.requests.length).toBe(0)
  })

  test('conversion of a large body reaches the OpenAI upstream whole', async () => {
    const value = plain('claude-via-openai')
    const res = await messages(raw(value))
    expect(res.status, await res.clone().text()).toBe(200)
    const sent = env.upstream.requests[0]!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.json.messages.map((m: { content: string }) => m.content)).toEqual(value.messages.map((m) => m.content))
  })

  test('conversion copies long strings from the client bytes: escapes, non-ASCII and surrogate pairs arrive as sent', async () => {
    const value: Record<string, any> = plain('claude-via-openai')
    const tricky = `${'line one\n\t"quoted" back\\slash é 中 😀 \u0001 '.repeat(40)}end`
    value.messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: tricky }, { type: 'text', text: tricky }] },
    )
    // written by hand, the way some clients escape: non-ASCII as \u escapes, a pair for the emoji
    const text = raw(value).replaceAll(JSON.stringify(tricky), JSON.stringify(tricky).replace(/é/g, '\\u00e9').replace(/😀/g, '\\ud83d\\ude00'))
    const res = await messages(text)
    expect(res.status, await res.clone().text()).toBe(200)
    const sent = env.upstream.requests[0]!
    expect(sent.json.messages.slice(-2)).toEqual([{ role: 'tool', tool_call_id: 'toolu_1', content: tricky }, { role: 'user', content: tricky }])
    expect(sent.body).toContain('\\u00e9 中 \\ud83d\\ude00') // the cut part as the client escaped it
    expect(sent.json.messages.slice(0, 40).map((m: { content: string }) => m.content)).toEqual(value.messages.slice(0, 40).map((m: { content: string }) => m.content))
  })

  test('conversion: a raw control character or a bad escape inside a long string is our 400, nothing sent, nothing charged', async () => {
    for (const bad of ['\u0001', '\t', '\\x', '\\u12G4']) {
      const text = raw(plain('claude-via-openai')).replace('lorem ipsum lorem', `lorem ${bad} lorem`)
      const res = await messages(text)
      expect(res.status, bad).toBe(400)
      expect(await anthropicError(res)).toContain('not valid JSON')
    }
    expect(env.upstream.requests.length).toBe(0)
    expect(env.outcomes.length).toBe(4)
    expect(env.outcomes.every((o) => !o.ok && o.usage === undefined)).toBe(true)
  })

  test('failover from a passthrough channel to a conversion channel decodes the body then', async () => {
    await env.addChannel({ type: 14, name: 'failing-first', models: 'claude-failover', priority: 10, autoBan: 0 })
    await env.addChannel({ type: 1, name: 'then-openai', models: 'claude-failover', priority: 0, autoBan: 0 })
    env.upstream.setBehavior([{ error: { status: 500 } }, { text: 'converted' }])
    const res = await messages(raw(plain('claude-failover')))
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as any).content[0].text).toBe('converted')
    expect(env.upstream.requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1/chat/completions'])
  })
})

describe('a body sent as a shared Blob (from bodyLimits.sharedSendBytes on)', () => {
  const before = bodyLimits.sharedSendBytes
  beforeAll(() => void (bodyLimits.sharedSendBytes = 50_000))
  afterAll(() => void (bodyLimits.sharedSendBytes = before))

  test('arrives as sent, and the request lets go of its bytes once they are sent', async () => {
    const text = raw(body())
    const res = await messages(text)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(env.upstream.requests[0]!.body).toBe(text)
    // let go of once sent, and not read back: the upstream reported usage, nothing needed the bytes again
    expect(() => (env.outcomes[0]!.input as RelayInput).body.bytes).toThrow('released')
  })

  test('a retry reads the bytes back: passthrough on a second channel, then conversion on a third', async () => {
    await env.addChannel({ type: 14, name: 'shared-1', models: 'claude-shared', priority: 20, autoBan: 0 })
    await env.addChannel({ type: 14, name: 'shared-2', models: 'claude-shared', priority: 10, autoBan: 0 })
    await env.addChannel({ type: 1, name: 'shared-3', models: 'claude-shared', priority: 0, autoBan: 0 })
    env.upstream.setBehavior([{ error: { status: 500 } }, { error: { status: 503 } }, { text: 'third time' }])
    const text = raw(plain('claude-shared'))
    const { result: res, sizes: readBack } = await blobReads(() => messages(text))
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as any).content[0].text).toBe('third time')
    // let go of after each passthrough attempt, read back for the next
    expect(readBack.filter((size) => size === Buffer.byteLength(text)).length).toBe(2)
    const [first, second, third] = env.upstream.requests
    expect([first!.path, second!.path, third!.path]).toEqual(['/v1/messages', '/v1/messages', '/v1/chat/completions'])
    expect(first!.body).toBe(text)
    expect(second!.body).toBe(text)
    const converted = JSON.parse(third!.body) as { messages: { content: string }[] }
    expect(converted.messages.map((m) => m.content)).toEqual(plain('claude-shared').messages.map((m) => m.content))
  })

  /** Runs `send` with every Blob made recorded with what it was made of, and those parts' sizes then. */
  async function blobsMadeIn(send: () => Promise<Response>): Promise<{ res: Response; made: { parts: unknown[]; sizes: number[] }[] }> {
    const made: { parts: unknown[]; sizes: number[] }[] = []
    const Original = globalThis.Blob
    globalThis.Blob = class extends Original {
      constructor(parts?: BlobPart[], options?: BlobPropertyBag) {
        super(parts, options)
        made.push({ parts: parts ?? [], sizes: (parts ?? []).map((part) => (part instanceof Uint8Array ? part.byteLength : -1)) })
      }
    }
    try {
      const res = await send()
      await res.clone().text()
      return { res, made }
    } finally {
      globalThis.Blob = Original
    }
  }

  /**
   * One Blob was made for the upstream, straight from the pieces of the body (runs of the client's bytes, new text):
   * it was never joined into bytes first (a second copy, held until the answer). The pieces that viewed the client's
   * bytes are empty now: the request let go of them.
   */
  function expectOneBlobOfPieces(made: { parts: unknown[]; sizes: number[] }[], sent: string): void {
    const ofBytes = made.filter(({ sizes }) => sizes.length > 0 && sizes.every((size) => size >= 0))
    expect(ofBytes.length).toBe(1)
    const { parts, sizes } = ofBytes[0]!
    expect(sizes.length).toBeGreaterThan(2)
    const size = Buffer.byteLength(sent)
    expect(sizes.reduce((sum, n) => sum + n, 0)).toBe(size)
    // the client's runs are empty now, the request having let go of them; what is left is the new text, a small part
    const left = (parts as Uint8Array[]).reduce((sum, part) => sum + part.byteLength, 0)
    expect(left).toBeLessThan(size / 4)
  }

  test('a converted body goes out as one Blob made from its pieces, and the client bytes are let go of (it holds their long strings)', async () => {
    const value = plain('claude-via-openai')
    const { res, made } = await blobsMadeIn(() => messages(raw(value)))
    expect(res.status, await res.clone().text()).toBe(200)
    const sent = env.upstream.requests[0]!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.json.messages.map((m: { content: string }) => m.content)).toEqual(value.messages.map((m) => m.content))
    expectOneBlobOfPieces(made, sent.body)
    expect(() => (env.outcomes[0]!.input as RelayInput).body.bytes).toThrow('released')
  })

  test('a retry after a conversion makes the client bytes again from the converted body: a passthrough channel receives them as sent', async () => {
    await env.addChannel({ type: 1, name: 'conv-first', models: 'claude-conv-first', priority: 10, autoBan: 0 })
    await env.addChannel({ type: 14, name: 'pass-then', models: 'claude-conv-first', priority: 0, autoBan: 0 })
    env.upstream.setBehavior([{ error: { status: 500 } }, { text: 'passed' }])
    const value: Record<string, any> = plain('claude-conv-first')
    const tricky = `${'line one\n\t"quoted" back\\slash é 中 😀 '.repeat(60)}end`
    value.messages.push({ role: 'user', content: [{ type: 'text', text: tricky }] })
    const text = raw(value).replace('é 中', '\\u00e9 中') // an escape as some clients write it
    const { result: res, sizes: readBack } = await blobReads(() => messages(text))
    expect(res.status, await res.clone().text()).toBe(200)
    const [first, second] = env.upstream.requests
    expect([first!.path, second!.path]).toEqual(['/v1/chat/completions', '/v1/messages'])
    expect(readBack).toEqual([Buffer.byteLength(first!.body)]) // the converted body read back once, for the retry
    expect(second!.body).toBe(text)
  })

  test('a patched passthrough body (a mapped model) goes out as one Blob made from its pieces, and the client bytes are let go of', async () => {
    const text = raw(body({ model: 'claude-mapped' }))
    const { res, made } = await blobsMadeIn(() => messages(text))
    expect(res.status).toBe(200)
    expect(env.upstream.requests[0]!.body).toBe(text.replace('"model": "claude-mapped"', '"model": "claude-upstream-name"'))
    expectOneBlobOfPieces(made, env.upstream.requests[0]!.body)
    expect(() => (env.outcomes[0]!.input as RelayInput).body.bytes).toThrow('released')
  })

  test('a retry after a patched passthrough makes the client bytes again: the next channel receives them as sent', async () => {
    await env.addChannel({ type: 14, name: 'mapped-first', models: 'claude-mapped-first', modelMapping: JSON.stringify({ 'claude-mapped-first': 'claude-upstream-name' }), priority: 10, autoBan: 0 })
    await env.addChannel({ type: 14, name: 'plain-then', models: 'claude-mapped-first', priority: 0, autoBan: 0 })
    env.upstream.setBehavior([{ error: { status: 500 } }, { text: 'second' }])
    const text = raw(body({ model: 'claude-mapped-first' }))
    const res = await messages(text)
    expect(res.status, await res.clone().text()).toBe(200)
    const [first, second] = env.upstream.requests
    expect(first!.body).toBe(text.replace('"model": "claude-mapped-first"', '"model": "claude-upstream-name"'))
    expect(second!.body).toBe(text)
  })

  test('a patch that rewrites most of the body (unsigned thinking blocks dropped from the messages) keeps the client bytes', async () => {
    const unsigned = body()
    unsigned.messages.splice(1, 0, { role: 'assistant', content: [{ type: 'thinking', thinking: 'let me look', signature: '' }, { type: 'text', text: 'ok' }] }, { role: 'user', content: 'go on' })
    const text = raw(unsigned)
    const res = await messages(text)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(env.upstream.requests[0]!.json.messages[1].content).toEqual([{ type: 'text', text: 'ok' }])
    expect((env.outcomes[0]!.input as RelayInput).body.bytes.length).toBe(Buffer.byteLength(text))
  })

  test('a cut made before dispatch (the reservation reads a prompt with an image) is made anew for a conversion after the bytes were let go of', async () => {
    await env.addChannel({ type: 14, name: 'media-1', models: 'claude-media', priority: 10, autoBan: 0 })
    await env.addChannel({ type: 1, name: 'media-2', models: 'claude-media', priority: 0, autoBan: 0 })
    env.upstream.setBehavior([{ error: { status: 500 } }, { text: 'seen' }])
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(6_000) } }
    const long = `read this: ${'the quick brown fox \u00e9 '.repeat(3_000)}`
    const text = raw({ model: 'claude-media', max_tokens: 100, messages: [{ role: 'user', content: [image, { type: 'text', text: long }] }] })
    const res = await messages(text)
    expect(res.status, await res.clone().text()).toBe(200)
    const converted = JSON.parse(env.upstream.requests[1]!.body) as { messages: { content: { type: string; text?: string; image_url?: { url: string } }[] }[] }
    const parts = converted.messages[0]!.content
    expect(parts.find((p) => p.type === 'text')!.text).toBe(long)
    expect(parts.find((p) => p.type === 'image_url')!.image_url!.url).toBe(`data:image/png;base64,${image.source.data}`)
  })
})
