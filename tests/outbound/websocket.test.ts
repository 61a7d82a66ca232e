/**
 * The outbound guard's WebSocket side (a realtime upstream): the same checks as `fetch` before anything is sent,
 * the socket to the checked address with the name in Host, and a handshake refused by the far end named with its
 * status (the relay fails over on it).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createOutbound, OutboundRefused } from '../../src/outbound/fetch'
import { createResolver } from '../../src/outbound/resolver'
import { WebSocketDialFailed } from '../../src/outbound/websocket'

const heard: { host: string | null; protocol: string | null; path: string }[] = []
let server: ReturnType<typeof Bun.serve>
beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.2',
    port: 0,
    fetch(req, srv) {
      const url = new URL(req.url)
      heard.push({ host: req.headers.get('host'), protocol: req.headers.get('sec-websocket-protocol'), path: url.pathname + url.search })
      if (url.pathname === '/refuse') return Response.json({ error: { message: 'bad key' } }, { status: 401 })
      if (url.pathname === '/redirect') return new Response(null, { status: 302, headers: { location: 'ws://127.0.0.1/' } })
      return srv.upgrade(req, { data: {}, headers: { 'sec-websocket-protocol': 'realtime' } }) ? undefined : new Response('no', { status: 400 })
    },
    websocket: { message: (ws, m) => void ws.send(`echo ${m}`) },
  })
})
afterAll(() => server.stop(true))

const outbound = (allowPrivate = true) =>
  createOutbound({ allowPrivate: () => allowPrivate, resolver: createResolver(async (host) => (host === 'realtime.test' ? ['127.0.0.2'] : host === 'meta.test' ? ['169.254.169.254'] : [])) })

test('dials the checked address with the name in Host, and resolves once the far end accepted', async () => {
  const socket = await outbound().webSocket(`http://realtime.test:${server.port}/v1/realtime?model=m`, { headers: { authorization: 'Bearer sk' }, protocols: ['realtime'] })
  expect(socket.protocol).toBe('realtime')
  const echoed = new Promise<string>((resolve) => socket.addEventListener('message', (e) => resolve(String(e.data))))
  socket.send('hi')
  expect(await echoed).toBe('echo hi')
  socket.close()
  expect(heard.at(-1)).toEqual({ host: `realtime.test:${server.port}`, protocol: 'realtime', path: '/v1/realtime?model=m' })
})

test('refused addresses are refused before any byte is sent', async () => {
  const before = heard.length
  await expect(outbound().webSocket('http://meta.test/v1/realtime', { headers: {} })).rejects.toBeInstanceOf(OutboundRefused)
  await expect(outbound(false).webSocket(`http://realtime.test:${server.port}/v1/realtime`, { headers: {} })).rejects.toThrow(/private|loopback/)
  await expect(outbound().webSocket('ftp://realtime.test/x', { headers: {} })).rejects.toBeInstanceOf(OutboundRefused)
  await Bun.sleep(0)
  expect(heard.length).toBe(before)
})

test('a handshake answered without 101 fails naming the status; a redirect is not followed', async () => {
  const refused = await outbound().webSocket(`http://realtime.test:${server.port}/refuse`, { headers: {} }).catch((e: unknown) => e)
  expect(refused).toBeInstanceOf(WebSocketDialFailed)
  expect((refused as WebSocketDialFailed).status).toBe(401)
  expect((refused as Error).message).toContain(`realtime.test:${server.port}/refuse`)
  const redirected = await outbound().webSocket(`http://realtime.test:${server.port}/redirect`, { headers: {} }).catch((e: unknown) => e)
  expect((redirected as WebSocketDialFailed).status).toBe(302)
})

test('an aborted dial rejects with the reason', async () => {
  const abort = new AbortController()
  abort.abort(new Error('client gone'))
  await expect(outbound().webSocket(`http://realtime.test:${server.port}/x`, { headers: {}, signal: abort.signal })).rejects.toThrow('client gone')
})
