/**
 * An upstream that breaks after the client got its first byte: each client protocol gets its own stream
 * error event as the last frame (never a silent end, never a success terminator), its SDK reports an error,
 * and the request is settled as failed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { ProtocolId } from '../../../src/protocols/types'
import { matrixClient } from './clients'
import { CLIENT_PROTOCOLS, resetFakes, startMatrixEnv, type MatrixEnv } from './harness'
import { rawStream } from './raw'
import { VENDOR_UPSTREAMS } from './vendors'
import { until } from '../../helpers/wait'

let env: MatrixEnv
beforeAll(async () => {
  env = await startMatrixEnv()
})
afterAll(() => env.stop())
beforeEach(() => {
  resetFakes(env)
  env.outcomes.length = 0
  // every upstream sends some content before frame 6 (Responses opens with three bookkeeping events)
  for (const fake of [env.upstream, env.vendors.bedrock, env.vendors.vertex]) fake.setBehavior(CUT)
})

const CUT = { text: Array.from({ length: 12 }, (_, i) => `w${i} `), cutAfter: 6 }

/** Checks the last frame is the client protocol's own error event. */
const IS_ERROR: Record<ProtocolId, (last: { event?: string; data: any }) => void> = {
  anthropic: (last) => {
    expect(last.event).toBe('error')
    expect(last.data).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('upstream stream broke') } })
  },
  'openai-chat': (last) => expect(last.data.error).toMatchObject({ type: 'server_error', message: expect.stringContaining('upstream stream broke') }),
  'openai-responses': (last) => {
    expect(last.event).toBe('response.failed')
    expect(last.data.response).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('upstream stream broke') } })
  },
  gemini: (last) => expect(last.data.error).toMatchObject({ code: expect.any(Number), status: expect.any(String), message: expect.stringContaining('upstream stream broke') }),
}

interface Case {
  client: ProtocolId
  /** a model served by an upstream of another protocol (conversion), or by a vendor (any client) */
  model: string
  upstream: string
}

const CASES: Case[] = [
  { client: 'anthropic', model: 'gpt-4.1-mini', upstream: 'openai-chat' },
  { client: 'openai-chat', model: 'claude-sonnet-4-5', upstream: 'anthropic' },
  { client: 'openai-responses', model: 'gemini-3-pro-preview', upstream: 'gemini' },
  { client: 'gemini', model: 'gpt-4.1-mini', upstream: 'openai-chat' },
  // every client against every vendor: Bedrock's event stream (re-encoded or converted) and Vertex's SSE (passed through or converted)
  ...CLIENT_PROTOCOLS.flatMap((client) => VENDOR_UPSTREAMS.map((up) => ({ client, model: up.model, upstream: up.protocol }))),
]

describe.each(CASES)('$client client, $upstream upstream cut after the first byte', (c) => {
  test('the last frame is the protocol’s own error event, after the content already sent', async () => {
    // the fake resets the connection once the client has the first content (a reset discards what the gateway has
    // not read yet: a fixed pause before it was missed under load, and the stream "broke before any content")
    const seen = Promise.withResolvers<void>()
    for (const fake of [env.upstream, env.vendors.bedrock, env.vendors.vertex]) fake.setBehavior({ ...CUT, cutWhen: seen.promise })
    const s = await rawStream(env, c.client, c.model, { marker: 'w0 ', then: seen.resolve })
    const last = s.events.at(-1)!
    IS_ERROR[c.client]({ event: last.event, data: JSON.parse(last.data) })
    expect(s.text).toContain('w0 ')
    expect(s.text).not.toContain('[DONE]')
    for (const terminator of ['message_stop', 'response.completed', '"finish_reason":"stop"', '"finishReason"']) expect(s.text).not.toContain(terminator)
    const outcome = await waitForOutcome()
    expect(outcome.ok).toBe(false)
    expect(outcome.error).toContain('upstream stream broke')
  })

  test('the SDK stream helper reports the error', async () => {
    // as above, the cut waits for the client's first content (a fixed 30 ms pause before the reset was missed under
    // load: the stream "broke before any content", a 503 that the Responses helper reads as no stream at all);
    // Gemini's SDK takes no fetch of its own, and any error passes its check
    const seen = Promise.withResolvers<void>()
    const watching = c.client === 'gemini' ? undefined : watchingFetch('w0 ', seen.resolve)
    if (watching) for (const fake of [env.upstream, env.vendors.bedrock, env.vendors.vertex]) fake.setBehavior({ ...CUT, cutWhen: seen.promise })
    const sdk = matrixClient(c.client, env.app.url, env.key, watching)
    // responses.stream() treats response.failed as terminal: finalResponse() resolves with status "failed"
    if (c.client === 'openai-responses') expect((await sdk.ask(c.model, true, 'text')).finish).toBe('failed')
    else await expect(sdk.ask(c.model, true, 'text')).rejects.toThrow()
  })
})

async function waitForOutcome() {
  await until(() => env.outcomes.length > 0, { what: 'the settled outcome' })
  return env.outcomes[0]!
}

/** fetch, calling `then` once the response body has carried `marker` to the client */
function watchingFetch(marker: string, then: () => void): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(input, init)
    if (!response.body) return response
    const decoder = new TextDecoder()
    let text = ''
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          text += decoder.decode(chunk, { stream: true })
          if (text.includes(marker)) then()
          controller.enqueue(chunk)
        },
      }),
    )
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }) as typeof fetch
}
