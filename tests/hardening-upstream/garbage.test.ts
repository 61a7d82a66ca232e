/**
 * An upstream that sends what is not its protocol inside a 200 stream (an HTML error page from a proxy, a
 * `data:` line that is not JSON): before the first content it is a failed attempt and the next channel
 * answers; after it the client gets the valid events, then its protocol's own error event, and is billed for
 * the text it got, never the garbage nor what the upstream might have sent after it.
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
  for (const upstream of Object.keys(MODEL_OF) as Upstream[]) {
    // two channels per model: the first tried first, the second is where a failed first attempt goes
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

const GARBAGE = {
  'a line that is not SSE': '<html><body><h1>502 Bad Gateway</h1> GARBAGE-MARKER</body></html>\n\n',
  'a data line that is not JSON': 'data: GARBAGE-MARKER upstream overloaded, try again\n\n',
  'a data line cut short': 'data: {"GARBAGE-MARKER": [1, 2\n\n',
}
const TEXT = ['alpha ', 'beta ', 'gamma']

for (const mode of ['passthrough', 'conversion'] as const) {
  describe(mode, () => {
    for (const client of CLIENTS) {
      const upstream = upstreamFor(client, mode)
      const protocol = upstreamProtocol(client, upstream)
      const model = MODEL_OF[upstream]
      for (const [kind, garbage] of Object.entries(GARBAGE)) {
        test(`${client} ← ${protocol}: ${kind} before any content is a failed attempt; the next channel answers`, async () => {
          env.upstream.setBehavior([
            { text: TEXT, garbage: { after: FRAMES_BEFORE_CONTENT[protocol], text: garbage } },
            { text: TEXT },
          ])
          const res = await send(env, client, model)
          expect(res.status).toBe(200)
          const view = readAs(client, await res.text())
          expect(view).toEqual({ text: TEXT.join(''), finished: true })
          await settled(env, 1)
          const outcome = env.outcomes[0]!
          expect(outcome.ok).toBe(true)
          expect(outcome.attempts).toHaveLength(2)
          expect(outcome.attempts[0]!.error).toMatch(/not SSE|not JSON/)
          expect(env.upstream.requests).toHaveLength(2)
        })

        test(`${client} ← ${protocol}: ${kind} after content ends the stream with the client's error event, billed for what it got`, async () => {
          const { user, key } = await account(env, 10_000_000)
          env.upstream.setBehavior({ text: TEXT, usage: { input: 10, output: 5000 }, garbage: { after: FRAMES_BEFORE_CONTENT[protocol] + 1, text: garbage } })
          const res = await send(env, client, model, key)
          expect(res.status).toBe(200)
          const body = await res.text()
          const view = readAs(client, body)
          expect(view.text).toBe(TEXT[0]!)
          expect(view.finished).toBe(false)
          expect(view.error).toMatch(/not SSE|not JSON/)
          // the garbage itself never reaches the client as a line of the stream
          expect(body.split(/\r?\n/).some((line) => line.startsWith('<html>') || line.startsWith('data: GARBAGE') || line.startsWith('data: {"GARBAGE'))).toBe(false)
          await settled(env, 1)
          const outcome = env.outcomes[0]!
          expect(outcome.ok).toBe(false)
          expect(outcome.error).toMatch(/not SSE|not JSON/)
          expect(outcome.attempts).toHaveLength(1)
          const [log] = await logsOf(env, user.id)
          // billed for the delivered text, not the 5,000 output tokens the upstream would have reported at the end
          expect(log!.completionTokens).toBeGreaterThanOrEqual(countTextTokens(TEXT[0]!))
          expect(log!.completionTokens).toBeLessThan(countTextTokens(TEXT.join('')) + 2)
          expect(log!.quota).toBeGreaterThan(0)
        })
      }
    }
  })
}
