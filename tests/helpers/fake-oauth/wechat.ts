/**
 * A fake WeChat server (new-api's protocol, songquanpeng/wechat-server): `GET /api/wechat/user?code=…` with the
 * server's token as `Authorization` answers `{success: true, message: "", data: "<openid>"}` for a code the official
 * account gave out (each works once), `{success: false, message}` otherwise. `issue(openid)` plays the user sending
 * the account a request and getting a code back.
 */
export interface FakeWeChat {
  url: string
  /** what the gateway asked: the code and the Authorization header */
  requests: { code: string; authorization: string }[]
  issue(openid: string): string
  /** answer this (status, body) instead, once set */
  override?: { status: number; body: string }
  stop(): void
}

// a 1×1 PNG: the official account's QR code as the login page shows it
const QR_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

export function startFakeWeChat(token: string): FakeWeChat {
  const codes = new Map<string, string>()
  let next = 100000
  const fake: FakeWeChat = {
    url: '',
    requests: [],
    issue(openid) {
      const code = String(next++)
      codes.set(code, openid)
      return code
    },
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const url = new URL(request.url)
      if (url.pathname === '/qr.png') return new Response(QR_PNG, { headers: { 'content-type': 'image/png' } })
      if (url.pathname !== '/api/wechat/user') return new Response('not found', { status: 404 })
      const code = url.searchParams.get('code') ?? ''
      const authorization = request.headers.get('authorization') ?? ''
      fake.requests.push({ code, authorization })
      if (fake.override) return new Response(fake.override.body, { status: fake.override.status, headers: { 'content-type': 'application/json' } })
      if (authorization !== token) return Response.json({ success: false, message: '无权进行此操作，access token 无效' })
      const openid = codes.get(code)
      if (!openid) return Response.json({ success: false, message: '验证码错误或已过期' })
      codes.delete(code)
      return Response.json({ success: true, message: '', data: openid })
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
