/**
 * A Spark (iFlytek) chat server over a WebSocket, as iFlytek documents it. The handshake is checked on its own terms
 * (not with the gateway's signer): `authorization` decoded from base64 must read `api_key="…", algorithm=
 * "hmac-sha256", headers="host date request-line", signature="…"`, the signature the HMAC-SHA256 (base64) of
 * `host: <Host header>\ndate: <date>\nGET <path> HTTP/1.1` under the API secret, the date within 300 s and the
 * query's host the Host the request came to: 401 otherwise (403 for a stale date). One request frame then gets
 * the answer in frames (status 0, 1, …, 2 with the usage). The last user turn can ask for trouble: `[refuse]`
 * (code 10013 at once), `[quota]` (11201), `[break]` (an error frame mid-answer), `[drop]` (the socket closed
 * mid-answer), `[big]` (a 2 MiB frame), `[slow]` (a frame every 200 ms, never the last).
 */
import { createHmac } from 'node:crypto'

export interface FakeSpark {
  port: number
  handshakes: { path: string; ok: boolean }[]
  received: any[]
  open: number
  stop(): void
}

export const SPARK_USAGE = { question_tokens: 4, prompt_tokens: 21, completion_tokens: 5, total_tokens: 26 }

export function startFakeSpark(credentials: { appId: string; apiKey: string; apiSecret: string }): FakeSpark {
  const fake: FakeSpark = { port: 0, handshakes: [], received: [], open: 0, stop: () => server.stop(true) }
  const server = Bun.serve<{ path: string }>({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req, srv) {
      const url = new URL(req.url)
      const refused = handshakeProblem(url, req.headers.get('host') ?? '', credentials)
      fake.handshakes.push({ path: url.pathname, ok: !refused })
      if (refused) return Response.json({ message: refused.message }, { status: refused.status })
      return srv.upgrade(req, { data: { path: url.pathname } }) ? undefined : new Response('expected a websocket', { status: 400 })
    },
    websocket: {
      open() {
        fake.open++
      },
      close() {
        fake.open--
      },
      message(ws, raw) {
        const frame = JSON.parse(String(raw))
        fake.received.push({ path: ws.data.path, frame })
        const sid = `cht000b${fake.received.length}`
        const send = (status: number, content: string, extra: Record<string, unknown> = {}): void =>
          void ws.send(JSON.stringify({ header: { code: 0, message: 'Success', sid, status }, payload: { choices: { status, seq: 0, text: [{ content, role: 'assistant', index: 0 }] }, ...extra } }))
        const fail = (code: number, message: string): void => void ws.send(JSON.stringify({ header: { code, message, sid, status: 2 } }))
        if (frame.header?.app_id !== credentials.appId) return fail(10313, 'appid cannot be empty or invalid')
        const last = String(frame.payload?.message?.text?.at(-1)?.content ?? '')
        if (last.includes('[refuse]')) return fail(10013, 'input content audit failed')
        if (last.includes('[quota]')) return fail(11201, 'licc limit')
        send(0, 'Hello ')
        if (last.includes('[break]')) return fail(10163, 'request parameter error')
        if (last.includes('[drop]')) return void ws.close(1011, 'engine error')
        if (last.includes('[big]')) return send(1, 'x'.repeat(2 << 20))
        if (last.includes('[slow]')) {
          const timer = setInterval(() => (ws.readyState === 1 ? send(1, '.') : clearInterval(timer)), 200)
          return
        }
        send(1, 'from ')
        send(2, 'Spark', { usage: { text: SPARK_USAGE } })
      },
    },
  })
  fake.port = server.port!
  return fake
}

function handshakeProblem(url: URL, hostHeader: string, credentials: { apiKey: string; apiSecret: string }): { status: number; message: string } | undefined {
  const q = url.searchParams
  const date = q.get('date') ?? ''
  const origin = Buffer.from(q.get('authorization') ?? '', 'base64').toString()
  const fields = Object.fromEntries([...origin.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
  if (q.get('host') !== hostHeader) return { status: 401, message: 'HMAC signature does not match (host)' }
  if (!(Math.abs(Date.parse(date) - Date.now()) <= 300_000)) return { status: 403, message: 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication' }
  if (fields.api_key !== credentials.apiKey || fields.algorithm !== 'hmac-sha256' || fields.headers !== 'host date request-line') return { status: 401, message: 'HMAC signature does not match' }
  const expected = createHmac('sha256', credentials.apiSecret).update(`host: ${hostHeader}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`).digest('base64')
  return fields.signature === expected ? undefined : { status: 401, message: 'HMAC signature does not match' }
}
