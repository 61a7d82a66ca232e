import { afterAll, beforeAll, expect, test } from 'bun:test'
import { logsWhen } from '../metering/env'
import { startOperationsEnv, type OperationsEnv } from './env'
import { until } from '../helpers/wait'

/** A speech upstream that sends one chunk of audio, then falls silent until the client or the gateway hangs up. */
let silent: ReturnType<typeof Bun.serve>
let aborted = 0
let o: OperationsEnv
beforeAll(async () => {
  silent = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      request.signal.addEventListener('abort', () => aborted++)
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array([0xff, 0xfb, 0x90, 0x00]))
        },
      })
      return new Response(body, { headers: { 'content-type': 'audio/mpeg' } })
    },
  })
  o = await startOperationsEnv()
  await o.env.app.deps.options.set('RelayStreamIdleSeconds', 1)
  await o.env.app.deps.routing.channels.create([{ name: 'silent', type: 1, baseUrl: `http://127.0.0.1:${silent.port}`, keyText: 'sk-x', models: 'tts-1', group: 'default' }])
})
afterAll(async () => {
  await o.stop()
  await silent.stop(true)
})

test('a speech stream whose upstream falls silent is ended after RelayStreamIdleSeconds, the upstream aborted, the characters billed once', async () => {
  const started = performance.now()
  const res = await o.env.app.fetch('/v1/audio/speech', {
    method: 'POST',
    headers: { authorization: `Bearer ${o.env.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', input: 'hello there', voice: 'alloy' }),
  })
  expect(res.status).toBe(200)
  const reader = res.body!.getReader()
  const first = await reader.read()
  expect(first.value).toEqual(new Uint8Array([0xff, 0xfb, 0x90, 0x00]))
  // the next read ends (an error or the end) once the idle limit passes, not never
  await reader.read().catch(() => undefined)
  const waited = performance.now() - started
  expect(waited).toBeGreaterThan(900)
  expect(waited).toBeLessThan(30_000) // a hang detector: the upstream is silent until the test ends
  const rows = await logsWhen(o.env, o.env.user.id, 1)
  expect(rows).toHaveLength(1)
  expect(rows[0]!.promptTokens).toBe('hello there'.length)
  expect(JSON.parse(rows[0]!.other).error).toContain('fell silent')
  await until(() => aborted > 0, { what: 'the upstream aborted' })
  expect(aborted).toBe(1)
}, 60_000) // bun 1.4.5 ignores bunfig's timeout: 5 s would be the real deadline
