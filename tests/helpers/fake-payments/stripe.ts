/**
 * A fake Stripe following its documented API, as far as Checkout Sessions go: `POST /v1/checkout/sessions` (the
 * SDK's form encoding, Bearer secret key), `GET /v1/checkout/sessions/:id`, and a checkout page whose Pay button
 * marks the session paid, posts `checkout.session.completed` to the webhook signed the way Stripe signs
 * (`t=…,v1=HMAC-SHA256(secret, "<t>.<body>")`, made by the SDK's own test helper) and sends the browser to
 * `success_url`.
 */
import Stripe from 'stripe'

export interface FakeStripe {
  url: string
  sessions: Map<string, Record<string, any>>
  /** the secret key it accepts and the signing secret it signs webhooks with */
  apiKey: string
  webhookSecret: string
  /** where it posts webhooks (set once the gateway runs) */
  webhookUrl: string
  /** a signed event for the session as Stripe would send it (type checkout.session.completed unless given) */
  event(sessionId: string, type?: string, patch?: Record<string, unknown>): Promise<{ payload: string; header: string }>
  /** post an event to the webhook; answers the gateway's status */
  deliver(sessionId: string, type?: string, patch?: Record<string, unknown>): Promise<number>
  stop(): void
}

export function startFakeStripe(): FakeStripe {
  const sessions = new Map<string, Record<string, any>>()
  let n = 0
  const fake: FakeStripe = {
    url: '',
    sessions,
    apiKey: 'sk_test_fake_0123456789',
    webhookSecret: 'whsec_fake_0123456789',
    webhookUrl: '',
    async event(sessionId, type = 'checkout.session.completed', patch = {}) {
      const session = { ...sessions.get(sessionId)!, ...patch }
      const payload = JSON.stringify({ id: `evt_${++n}`, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object: session } })
      return { payload, header: await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: fake.webhookSecret }) }
    },
    async deliver(sessionId, type, patch) {
      const { payload, header } = await fake.event(sessionId, type, patch)
      const response = await fetch(fake.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload })
      await response.text()
      return response.status
    },
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      if (url.pathname === '/v1/balance' && request.method === 'GET') {
        if (request.headers.get('authorization') !== `Bearer ${fake.apiKey}`) return Response.json({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }, { status: 401 })
        return Response.json({ object: 'balance', livemode: false, available: [{ amount: 0, currency: 'usd' }], pending: [] })
      }
      if (url.pathname === '/v1/checkout/sessions' && request.method === 'POST') {
        if (request.headers.get('authorization') !== `Bearer ${fake.apiKey}`) return Response.json({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }, { status: 401 })
        const form = new URLSearchParams(await request.text())
        const expiresAt = form.has('expires_at') ? Number(form.get('expires_at')) : Math.floor(Date.now() / 1000) + 86_400
        // Stripe's rule: a session expires 30 minutes to 24 hours after it is made
        const ahead = expiresAt - Math.floor(Date.now() / 1000)
        if (!(ahead >= 1800 - 60 && ahead <= 86_400 + 60)) return Response.json({ error: { type: 'invalid_request_error', param: 'expires_at', message: 'expires_at must be 30 minutes to 24 hours ahead' } }, { status: 400 })
        const id = `cs_test_${++n}`
        const session = {
          expires_at: expiresAt,
          id,
          object: 'checkout.session',
          mode: form.get('mode'),
          client_reference_id: form.get('client_reference_id'),
          metadata: { trade_no: form.get('metadata[trade_no]'), user_id: form.get('metadata[user_id]') },
          amount_total: Number(form.get('line_items[0][price_data][unit_amount]')) * Number(form.get('line_items[0][quantity]')),
          currency: form.get('line_items[0][price_data][currency]'),
          payment_status: 'unpaid',
          status: 'open',
          success_url: form.get('success_url'),
          cancel_url: form.get('cancel_url'),
          url: `${fake.url}/c/pay/${id}`,
        }
        sessions.set(id, session)
        return Response.json(session)
      }
      const got = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(url.pathname)
      if (got && request.method === 'GET') return sessions.has(got[1]!) ? Response.json(sessions.get(got[1]!)) : Response.json({ error: { message: 'No such session' } }, { status: 404 })
      const page = /^\/c\/pay\/([\w]+)$/.exec(url.pathname)
      if (page && sessions.has(page[1]!)) {
        const session = sessions.get(page[1]!)!
        if (request.method === 'GET') {
          const amount = (session.amount_total / 100).toFixed(2)
          return new Response(`<!doctype html><title>Stripe Checkout (fake)</title><h1>Pay US$${amount}</h1><form method="post"><button>Pay</button></form>`, { headers: { 'content-type': 'text/html' } })
        }
        Object.assign(session, { payment_status: 'paid', status: 'complete' })
        await fake.deliver(session.id)
        return Response.redirect(session.success_url, 303)
      }
      return new Response('not found', { status: 404 })
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
