/**
 * An upstream that breaks after the client got its first byte: each client protocol gets its own stream
 * error event as the last frame (never a silent end, never a success terminator), its SDK reports an error,
 * and the request is settled as failed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { ProtocolId } from '../../../src/protocols/types'
import type { RelayEnv } from '../../helpers/relay-env'
import { matrixClient } from './clients'
import { startMatrixEnv } from './harness'
import { rawStream } from './raw'

let env: RelayEnv
beforeAll(async () => {
  env = await startMatrixEnv()
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
  // every upstream sends some content before frame 6 (Responses opens with three bookkeeping events)
  env.upstream.setBehavior({ text: Array.from({ length: 12 }, (_, i) => `w${i} `), cutAfter: 6 })
})

interface Case {
  client: ProtocolId
  /** a model served by an upstream of another protocol (conversion) */
  model: string
  /** checks the last frame is this protocol's own error event */
  isError(last: { event?: string; data: any }): void
}

const CASES: Case[] = [
  {
    client: 'anthropic', model: 'gpt-4.1-mini',
    isError: (last) => {
      expect(last.event).toBe('error')
      expect(last.data).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('upstream stream broke') } })
    },
  },
  {
    client: 'openai-chat', model: 'claude-sonnet-4-5',
    isError: (last) => expect(last.data.error).toMatchObject({ type: 'server_error', message: expect.stringContaining('upstream stream broke') }),
  },
  {
    client: 'openai-responses', model: 'gemini-3-pro-preview',
    isError: (last) => {
      expect(last.event).toBe('response.failed')
      expect(last.data.response).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('upstream stream broke') } })
    },
  },
  {
    client: 'gemini', model: 'gpt-4.1-mini',
    isError: (last) => expect(last.data.error).toMatchObject({ code: expect.any(Number), status: expect.any(String), message: expect.stringContaining('upstream stream broke') }),
  },
]

describe.each(CASES)('$client client, upstream cut after the first byte', (c) => {
  test('the last frame is the protocol’s own error event, after the content already sent', async () => {
    const s = await rawStream(env, c.client, c.model)
    const last = s.events.at(-1)!
    c.isError({ event: last.event, data: JSON.parse(last.data) })
    expect(s.text).toContain('w0 ')
    expect(s.text).not.toContain('[DONE]')
    for (const terminator of ['message_stop', 'response.completed', '"finish_reason":"stop"', '"finishReason"']) expect(s.text).not.toContain(terminator)
    const outcome = await waitForOutcome()
    expect(outcome.ok).toBe(false)
    expect(outcome.error).toContain('upstream stream broke')
  })

  test('the SDK stream helper reports the error', async () => {
    const sdk = matrixClient(c.client, env.app.url, env.key)
    // responses.stream() treats response.failed as terminal: finalResponse() resolves with status "failed"
    if (c.client === 'openai-responses') expect((await sdk.ask(c.model, true, 'text')).finish).toBe('failed')
    else await expect(sdk.ask(c.model, true, 'text')).rejects.toThrow()
  })
})

async function waitForOutcome() {
  for (let i = 0; i < 100 && env.outcomes.length === 0; i++) await Bun.sleep(5)
  return env.outcomes[0]!
}
