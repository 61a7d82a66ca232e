/**
 * An upstream that falls silent. After the headers but before any content: a failed attempt once
 * `RelayTimeoutSeconds` pass, the next channel answers. After some content: the client's own error event once
 * `RelayStreamIdleSeconds` pass, billed for the text it got. A client that reads slowly is no upstream silence.
 * Both options are 1 s here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { countTextTokens } from '../../src/relay/meter/tokenize'
import type { RelayEnv } from '../helpers/relay-env'
import { UPSTREAM_KEY } from '../helpers/relay-env'
import { account, logsOf, settled, startMeteredEnv } from '../metering/env'
import { CLIENTS, FRAMES_BEFORE_CONTENT, MODEL_OF, readAs, send, TYPE_OF, upstreamFor, upstreamProtocol, type Upstream } from './clients'

let env: RelayEnv
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.app.deps.options.set('RelayStreamIdleSeconds', 1)
  await env.app.deps.options.set('RelayTimeoutSeconds', 1)
  countTextTokens('load the tokenizer now, not inside a timed test')
  for (const upstream of Object.keys(MODEL_OF) as Upstream[]) {
    for (const priority of [10, 0]) {
      await env.app.deps.routing.channels.create([{
        name: `${upstream}-${priority}`, type: TYPE_OF[upstream], baseUrl: env.upstream.url, keyText: UPSTREAM_KEY,
        models: MODEL_OF[upstream], group: 'default', priority,
      }])
    }
  }
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

const TEXT = ['alpha ', 'beta ', 'gamma']

for (const mode of ['passthrough', 'conversion'] as const) {
  describe(mode, () => {
    for (const client of CLIENTS) {
      const upstream = upstreamFor(client, mode)
      const protocol = upstreamProtocol(client, upstream)
      const model = MODEL_OF[upstream]

      test(`${client} ← ${protocol}: silent after the first content → the client's error event after ~1 s, billed for what it got`, async () => {
        const { user, key } = await account(env, 10_000_000)
        env.upstream.setBehavior({ text: TEXT, usage: { input: 10, output: 5000 }, stall: FRAMES_BEFORE_CONTENT[protocol] + 1 })
        const started = performance.now()
        const res = await send(env, client, model, key)
        expect(res.status).toBe(200)
        const view = readAs(client, await res.text())
        const elapsed = performance.now() - started
        expect(elapsed).toBeGreaterThan(900)
        // the upstream stalls until the test ends: the error below is the idle limit's own; 30 s is a hang detector
        expect(elapsed).toBeLessThan(30_000)
        expect(view.text).toBe(TEXT[0]!)
        expect(view.finished).toBe(false)
        expect(view.error).toContain('no data from the upstream')
        await settled(env, 1)
        const outcome = env.outcomes[0]!
        expect(outcome.ok).toBe(false)
        expect(outcome.error).toContain('no data from the upstream')
        const [log] = await logsOf(env, user.id)
        expect(log!.completionTokens).toBe(countTextTokens(TEXT[0]!))
        expect(log!.quota).toBeGreaterThan(0)
        await env.upstream.waitForDisconnect(1, 10_000) // the upstream request was dropped (a hang detector)
      }, 60_000) // bun 1.4.5 ignores bunfig's timeout: 5 s would be the real deadline

      test(`${client} ← ${protocol}: silent after the headers → a failed attempt after ~1 s, the next channel answers`, async () => {
        env.upstream.setBehavior([{ text: TEXT, stall: FRAMES_BEFORE_CONTENT[protocol] }, { text: TEXT }])
        const started = performance.now()
        const res = await send(env, client, model)
        expect(res.status).toBe(200)
        const view = readAs(client, await res.text())
        expect(performance.now() - started).toBeGreaterThan(900)
        expect(view).toEqual({ text: TEXT.join(''), finished: true })
        await settled(env, 1)
        const outcome = env.outcomes[0]!
        expect(outcome.ok).toBe(true)
        expect(outcome.attempts).toHaveLength(2)
        expect(outcome.attempts[0]!.error).toContain('timed out')
      }, 60_000)
    }
  })
}

/** ~16 MB of answer: far more than the socket buffers hold (~5 MB on loopback), so the relay has to wait for the client. */
const BIG = Array.from({ length: 16_000 }, (_, i) => `w${i} `.padEnd(1000, '.'))
/** More than loopback's socket buffers can swallow (tcp_rmem may grow to 32 MiB here, tcp_wmem to 4): a reader that reads nothing stalls the write */
const HUGE = Array.from({ length: 64_000 }, (_, i) => `w${i} `.padEnd(1000, '.'))

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = []
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value)
  return Buffer.concat(chunks).toString('utf8')
}

test('a client that pauses for less than RelayStreamIdleSeconds while the upstream is fast gets the whole answer', async () => {
  await env.app.deps.options.set('RelayStreamIdleSeconds', 2)
  try {
    env.upstream.setBehavior({ text: BIG })
    const res = await send(env, 'openai-chat', MODEL_OF.openai)
    const reader = res.body!.getReader()
    const first = await reader.read()
    await Bun.sleep(1200)
    const view = readAs('openai-chat', Buffer.from(first.value!).toString('utf8') + (await readAll(reader)))
    expect(view.error).toBeUndefined()
    expect(view.finished).toBe(true)
    await settled(env, 1)
    expect(env.outcomes[0]!.ok).toBe(true)
  } finally {
    await env.app.deps.options.set('RelayStreamIdleSeconds', 1)
  }
}, 20_000)

test('a client that reads nothing for longer than RelayStreamIdleSeconds is let go as gone: the upstream is dropped, not blamed', async () => {
  env.upstream.setBehavior({ text: HUGE })
  const res = await send(env, 'openai-chat', MODEL_OF.openai)
  const reader = res.body!.getReader()
  await reader.read()
  await Bun.sleep(2500)
  await settled(env, 1)
  const outcome = env.outcomes[0]!
  expect(outcome.aborted).toBe(true)
  expect(outcome.error).toBeUndefined() // no "no data from the upstream": the channel's health is not charged for it
  // the response is over for the client too: what was buffered, then the end (or a reset), not a stream left open
  const rest = await Promise.race([readAll(reader).then(() => 'ended', () => 'ended'), Bun.sleep(5000).then(() => 'still open')])
  expect(rest).toBe('ended')
}, 20_000)

test('an upstream silent mid-answer for 12 s, within RelayStreamIdleSeconds: keep-alives go out and the client gets the whole answer', async () => {
  // Bun.serve ends a response that writes nothing for its idleTimeout (30 s as Elysia sets it: a 32 s silence was a reset
  // connection before keep-alives) and proxies in front do after their own; keep-alives go out every 5 s
  await env.app.deps.options.set('RelayStreamIdleSeconds', 30)
  try {
    env.upstream.setBehavior({ text: TEXT, pauseAt: { after: FRAMES_BEFORE_CONTENT['openai-chat'] + 1, ms: 12_000 } })
    const [sse, array] = (await Promise.all((['openai-chat', 'gemini-array'] as const).map(async (client) => {
      const res = await send(env, client, client === 'openai-chat' ? MODEL_OF.openai : MODEL_OF.gemini)
      return { client, body: await res.text() }
    }))) as unknown as [{ body: string }, { body: string }]
    expect(sse.body.split(': keep-alive\n\n').length - 1).toBeGreaterThanOrEqual(2)
    expect(array.body).toContain('}\n\n') // the JSON array carries them as whitespace between elements
    expect(readAs('openai-chat', sse.body)).toEqual({ text: TEXT.join(''), finished: true })
    expect(readAs('gemini-array', array.body)).toEqual({ text: TEXT.join(''), finished: true })
    await settled(env, 2)
    expect(env.outcomes.every((o) => o.ok)).toBe(true)
  } finally {
    await env.app.deps.options.set('RelayStreamIdleSeconds', 1)
  }
}, 30_000)
