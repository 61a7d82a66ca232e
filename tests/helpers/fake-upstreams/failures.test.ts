/** Raw wire bytes, vendor validation and auth, and the scripted failure modes of the fake upstreams. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream } from './index'
import { until } from '../wait'

let up: FakeUpstream
beforeAll(async () => {
  up = await startFakeUpstream()
})
afterAll(() => up.stop())
beforeEach(() => {
  up.reset()
  up.setKeys([])
})

const ANTHROPIC_HEADERS = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' }
const anthropicBody = (extra: object = {}) =>
  ({ model: 'claude-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...extra })
const post = (path: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }, signal?: AbortSignal) =>
  fetch(up.url + path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body), signal })
const chat = (extra: object = {}, signal?: AbortSignal) =>
  post('/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...extra }, undefined, signal)

describe('wire bytes', () => {
  test('anthropic stream: event lines, message_start first, ping after the first block start', async () => {
    up.setBehavior({ text: ['He', 'llo'] })
    const text = await (await post('/v1/messages', anthropicBody({ stream: true }), ANTHROPIC_HEADERS)).text()
    const events = [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1])
    expect(events).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta',
      'content_block_stop', 'message_delta', 'message_stop'])
    expect(text).toContain('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"He"}}\n\n')
  })

  test('chat stream: role first, usage: null on chunks, usage chunk with empty choices, [DONE]', async () => {
    up.setBehavior({ text: 'Hi' })
    const text = await (await chat({ stream: true, stream_options: { include_usage: true } })).text()
    const datas = text.split('\n\n').filter(Boolean).map((f) => f.replace(/^data: /, ''))
    expect(datas.at(-1)).toBe('[DONE]')
    const chunks = datas.slice(0, -1).map((d) => JSON.parse(d))
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null })
    expect(chunks[0].usage).toBeNull()
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop')
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 20 } })
    // without include_usage there is no usage field at all
    const plain = await (await chat({ stream: true })).text()
    expect(plain).not.toContain('usage')
  })

  test('responses stream: sequence numbers and event order', async () => {
    up.setBehavior({ text: 'Yo' })
    const text = await (await post('/v1/responses', { model: 'gpt-5', input: 'hi', stream: true })).text()
    const datas = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!))
    expect(datas.map((d) => d.sequence_number)).toEqual(datas.map((_, i) => i))
    expect(datas.map((d) => d.type)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added',
      'response.content_part.added', 'response.output_text.delta', 'response.output_text.delta', 'response.output_text.done',
      'response.content_part.done', 'response.output_item.done', 'response.completed'])
  })

  test('gemini: SSE frames end in CRLF CRLF; without alt=sse the stream is one JSON array', async () => {
    up.setBehavior({ text: 'abc', textDeltas: 3 })
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }
    const sse = await (await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', body)).text()
    expect(sse.split('\r\n\r\n').filter(Boolean)).toHaveLength(3)
    const array = await (await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent', body)).json()
    expect(array.map((c: any) => c.candidates[0].content.parts[0].text)).toEqual(['a', 'b', 'c'])
    expect(array[2].candidates[0].finishReason).toBe('STOP')
  })

  test('every request is recorded with its exact body, headers and query', async () => {
    const raw = '{"model":"gpt-4o-mini",  "messages":[{"role":"user","content":"hi"}]}'
    await post('/v1/chat/completions?x=1', raw, { 'content-type': 'application/json', authorization: 'Bearer sk-1' })
    const rec = up.requests[0]!
    expect(rec).toMatchObject({ method: 'POST', path: '/v1/chat/completions', query: { x: '1' }, body: raw, protocol: 'openai-chat', model: 'gpt-4o-mini', completed: true, aborted: false })
    expect(rec.headers['authorization']).toBe('Bearer sk-1')
    expect(rec.json.messages[0].content).toBe('hi')
  })
})

describe('validation like the vendor', () => {
  const cases: [string, () => Promise<Response>, number, string][] = [
    ['anthropic max_tokens', () => post('/v1/messages', anthropicBody({ max_tokens: undefined }), ANTHROPIC_HEADERS), 400, 'max_tokens: Field required'],
    ['anthropic empty messages', () => post('/v1/messages', anthropicBody({ messages: [] }), ANTHROPIC_HEADERS), 400, 'at least one message'],
    ['anthropic empty signature', () => post('/v1/messages', anthropicBody({ messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: '' }, { type: 'text', text: 'a' }] },
      { role: 'user', content: 'q2' },
    ] }), ANTHROPIC_HEADERS), 400, 'messages.1.content.0: Invalid `signature` in `thinking` block'],
    ['anthropic version header', () => post('/v1/messages', anthropicBody(), { 'content-type': 'application/json' }), 400, 'anthropic-version'],
    ['chat messages', () => post('/v1/chat/completions', { model: 'gpt-4o-mini' }), 400, "Missing required parameter: 'messages'."],
    ['chat orphan tool message', () => chat({ messages: [{ role: 'user', content: 'q' }, { role: 'tool', tool_call_id: 'c1', content: 'r' }] }), 400, "role 'tool' must be a response"],
    ['responses input', () => post('/v1/responses', { model: 'gpt-5' }), 400, "Missing required parameter: 'input'."],
    ['gemini contents', () => post('/v1beta/models/gemini-2.5-flash:generateContent', {}), 400, 'contents is not specified'],
    ['gemini 3 call without signature', () => post('/v1beta/models/gemini-3-pro-preview:generateContent', { contents: [
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] },
    ] }), 400, 'missing a thought_signature'],
  ]
  for (const [name, send, status, message] of cases) {
    test(name, async () => {
      const res = await send()
      expect(res.status).toBe(status)
      expect(JSON.stringify(await res.json())).toContain(JSON.stringify(message).slice(1, -1))
    })
  }

  test('auth per vendor: anthropic x-api-key or Bearer; openai 401 body; gemini 403 without a key', async () => {
    up.setKeys(['good'])
    expect((await post('/v1/messages', anthropicBody(), { ...ANTHROPIC_HEADERS, 'x-api-key': 'good' })).status).toBe(200)
    const { 'x-api-key': _k, ...noKey } = ANTHROPIC_HEADERS
    expect((await post('/v1/messages', anthropicBody(), { ...noKey, authorization: 'Bearer good' })).status).toBe(200)
    const bad = await post('/v1/messages', anthropicBody(), ANTHROPIC_HEADERS)
    expect(bad.status).toBe(401)
    expect(await bad.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } })
    const openai = await chat()
    expect(openai.status).toBe(401)
    expect((await openai.json()).error).toMatchObject({ type: 'invalid_request_error', param: null })
    const g = await post('/v1beta/models/gemini-2.5-flash:generateContent', { contents: [{ parts: [{ text: 'q' }] }] })
    expect(g.status).toBe(403)
    expect((await g.json()).error.status).toBe('PERMISSION_DENIED')
  })
})

describe('failure modes', () => {
  test('failFirst: the first N requests fail, then the scenario succeeds', async () => {
    up.setBehavior({ text: 'finally', error: { status: 529 }, failFirst: 2 })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await post('/v1/messages', anthropicBody(), ANTHROPIC_HEADERS)).status)
    expect(statuses).toEqual([529, 529, 200])
  })

  test('a Scenario[] scripts consecutive requests; the last one repeats', async () => {
    up.setBehavior([{ error: { status: 500 } }, { text: 'second' }])
    expect((await chat()).status).toBe(500)
    expect((await (await chat()).json()).choices[0].message.content).toBe('second')
    expect((await (await chat()).json()).choices[0].message.content).toBe('second')
  })

  test('in-stream errors before content: responses response.failed, gemini error chunk', async () => {
    up.setBehavior({ streamError: { type: 'server_error', message: 'exploded' } })
    const r = await (await post('/v1/responses', { model: 'gpt-5', input: 'hi', stream: true })).text()
    expect(r).toContain('event: response.failed\ndata: {"type":"response.failed"')
    expect(r).toContain('"error":{"code":"server_error","message":"exploded"}')
    up.setBehavior({ streamError: { type: 'UNAVAILABLE' } })
    const g = await (await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [{ parts: [{ text: 'q' }] }] })).text()
    expect(JSON.parse(g.slice(6))).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } })
  })

  test('delayMs between frames and firstByteDelayMs before headers', async () => {
    up.setBehavior({ text: ['a', 'b', 'c'], delayMs: 40, firstByteDelayMs: 80 })
    const t0 = performance.now()
    const res = await chat({ stream: true })
    expect(performance.now() - t0).toBeGreaterThanOrEqual(75)
    const reader = res.body!.getReader()
    const times: number[] = []
    while (!(await reader.read()).done) times.push(performance.now())
    expect(times.at(-1)! - t0).toBeGreaterThanOrEqual(75 + 5 * 38) // 6 frames, 5 gaps
  })

  test('cutAfter resets the connection after N frames', async () => {
    up.setBehavior({ text: ['a', 'b', 'c'], cutAfter: 2 })
    const res = await chat({ stream: true })
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let received = ''
    const err = await (async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return undefined
        received += new TextDecoder().decode(value)
      }
    })().catch((e) => e)
    expect(err).toBeDefined()
    expect(received.match(/^data: /gm)).toHaveLength(2)
    expect(up.disconnects).toBe(0)
  })

  test('non-stream cut: half a body, then a reset', async () => {
    up.setBehavior({ text: 'whole', cutAfter: 0 })
    expect(await chat().then((r) => r.text()).catch((e) => e)).toBeInstanceOf(Error)
  })

  test('stall before headers: the client gives up, the fake counts a disconnect', async () => {
    up.setBehavior({ stall: 'headers' })
    const ac = new AbortController()
    const pending = chat({}, ac.signal).catch((e) => e)
    await until(() => up.requests.length > 0, { what: 'the request at the fake' })
    ac.abort()
    expect((await pending).name).toBe('AbortError')
    await up.waitForDisconnect(1, 2000)
    expect(up.requests[0]!.aborted).toBe(true)
  })

  test('stall mid-stream: frames then silence; disconnect detected when the client aborts', async () => {
    up.setBehavior({ text: ['a', 'b'], stall: 2 })
    const ac = new AbortController()
    const res = await post('/v1/messages', anthropicBody({ stream: true }), ANTHROPIC_HEADERS, ac.signal)
    const reader = res.body!.getReader()
    let received = ''
    while (!received.includes('content_block_start')) received += new TextDecoder().decode((await reader.read()).value)
    const next = reader.read().catch((e) => e)
    const stalled = await Promise.race([next.then(() => 'data'), Bun.sleep(150).then(() => 'stalled')])
    expect(stalled).toBe('stalled')
    ac.abort()
    await up.waitForDisconnect(1, 2000)
    expect(up.requests[0]!).toMatchObject({ aborted: true, completed: false })
  })

  test('a client that reads everything is not counted as a disconnect', async () => {
    up.setBehavior({ text: 'ok' })
    await (await chat({ stream: true })).text()
    await until(() => up.requests[0]?.completed === true, { what: 'the fake done sending' }) // a disconnect counts only before this
    expect(up.disconnects).toBe(0)
    expect(up.requests[0]!.completed).toBe(true)
  })
})
