/**
 * The outbound guard remembers an allowed verdict per target (bench/README: the relay's every call judged with no
 * await and no async frame). What it remembers must never outlive what the verdict rested on: the resolver's answer
 * (a new one after its TTL is judged again) and `ChannelPrivateNetworksAllowed` (read on every call). A refusal is
 * never remembered. The server listens on 127.0.0.2; lookups come from a test resolver with a test clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createOutbound, OutboundRefused } from '../../src/outbound/fetch'
import { createResolver } from '../../src/outbound/resolver'

let heard = 0
let server: ReturnType<typeof Bun.serve>
beforeAll(() => {
  server = Bun.serve({ hostname: '127.0.0.2', port: 0, fetch: () => (heard++, Response.json({ ok: true })) })
})
afterAll(() => void server.stop(true))

describe('a remembered verdict', () => {
  test('turning private networks off refuses the next call to a target allowed a moment ago, and on again allows it', async () => {
    heard = 0
    let allowPrivate = true
    const outbound = createOutbound({ allowPrivate: () => allowPrivate })
    const url = `http://127.0.0.2:${server.port}/v1/chat/completions`
    expect((await outbound.fetch(url)).status).toBe(200)
    expect((await outbound.fetch(url)).status).toBe(200)
    allowPrivate = false
    await expect(outbound.fetch(url)).rejects.toThrow('127.0.0.2 is a loopback address')
    await expect(outbound.fetch(url)).rejects.toBeInstanceOf(OutboundRefused) // refused again: a refusal is not remembered as allowed
    allowPrivate = true
    expect((await outbound.fetch(url)).status).toBe(200)
    expect(heard).toBe(3)
  })

  test('a name allowed at a public answer is refused once its next answer (after the TTL) is private', async () => {
    heard = 0
    let clock = 0
    const answers: Record<string, string[]> = { 'turns.test': ['93.184.216.34'] }
    const resolver = createResolver(async (host) => answers[host] ?? [], () => clock)
    const outbound = createOutbound({ allowPrivate: () => false, resolver })
    const url = `http://turns.test:${server.port}/`
    // allowed (public), then dialled there: unreachable from the test machine, so the call fails, but not as a refusal
    const first = await outbound.fetch(url, { signal: AbortSignal.timeout(1_000) }).catch((e: Error) => e)
    expect(first).not.toBeInstanceOf(OutboundRefused)
    answers['turns.test'] = ['127.0.0.2']
    clock += 31_000 // past the answer's 30 s
    await expect(outbound.fetch(url)).rejects.toThrow('turns.test resolves to 127.0.0.2, a loopback address')
    expect(heard).toBe(0)
  })

  test('a refusal is a rejected promise, never a synchronous throw (callers chain .catch)', async () => {
    const outbound = createOutbound({ allowPrivate: () => false })
    const calls = [() => outbound.fetch('not a url'), () => outbound.fetch(`http://127.0.0.2:${server.port}/`)]
    for (const call of calls) {
      let sent: unknown
      try {
        sent = call()
      } catch (error) {
        sent = error // a synchronous throw: the assertion below fails on it
      }
      expect(sent).toBeInstanceOf(Promise)
      await expect(sent as Promise<Response>).rejects.toBeInstanceOf(OutboundRefused)
    }
  })
})
