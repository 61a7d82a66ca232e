/**
 * A fake of Cloudflare Turnstile, after its documentation: `POST /turnstile/v0/siteverify` takes `secret`,
 * `response` and `remoteip` (form-encoded or JSON) and answers `{success, challenge_ts, hostname, "error-codes",
 * action, cdata}`; a token is good once (then `timeout-or-duplicate`), a wrong secret is `invalid-input-secret`.
 * `GET /turnstile/v0/api.js` is a stand-in widget: `turnstile.render(el, {sitekey, callback})` calls back with a
 * fresh good token, so a browser test goes through the console's real code path.
 */
export interface FakeTurnstile {
  url: string
  /** the siteverify calls, as received */
  calls: { secret: string; response: string; remoteip: string }[]
  /** a token the fake will accept once */
  issue(): string
  stop(): void
}

export function startFakeTurnstile(secret: string): FakeTurnstile {
  const good = new Set<string>()
  const used = new Set<string>()
  const calls: FakeTurnstile['calls'] = []
  let n = 0
  const issue = () => {
    const token = `XXXX.DUMMY.TOKEN.${++n}`
    good.add(token)
    return token
  }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      if (url.pathname === '/turnstile/v0/api.js') {
        // the widget stands in for Cloudflare's: the page calls render() and gets a token through its callback
        const script: string = `window.turnstile={render:function(el,o){fetch(${JSON.stringify(`http://127.0.0.1:${server.port}`)}+'/issue').then(function(r){return r.text()}).then(function(t){el.setAttribute('data-fake-turnstile','rendered');o.callback(t)});return 'w1'},reset:function(){},remove:function(){}};`
        return new Response(script, { headers: { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' } })
      }
      if (url.pathname === '/issue') return new Response(issue(), { headers: { 'access-control-allow-origin': '*' } })
      if (url.pathname !== '/turnstile/v0/siteverify' || request.method !== 'POST') return new Response('not found', { status: 404 })
      const form = request.headers.get('content-type')?.includes('json') ? new Map(Object.entries((await request.json()) as Record<string, string>)) : await request.formData()
      const call = { secret: String(form.get('secret') ?? ''), response: String(form.get('response') ?? ''), remoteip: String(form.get('remoteip') ?? '') }
      calls.push(call)
      const errors: string[] = []
      if (!call.secret) errors.push('missing-input-secret')
      else if (call.secret !== secret) errors.push('invalid-input-secret')
      if (!call.response) errors.push('missing-input-response')
      else if (used.has(call.response)) errors.push('timeout-or-duplicate')
      else if (!good.has(call.response)) errors.push('invalid-input-response')
      if (errors.length === 0) {
        good.delete(call.response)
        used.add(call.response)
        return Response.json({ success: true, challenge_ts: new Date().toISOString(), hostname: 'localhost', 'error-codes': [], action: '', cdata: '' })
      }
      return Response.json({ success: false, 'error-codes': errors })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, calls, issue, stop: () => void server.stop(true) }
}
