/**
 * A fake Creem following its documented API: `POST /v1/checkouts` (x-api-key; product_id, request_id,
 * success_url, metadata) answers `{ id, checkout_url }`; the checkout page's Pay button posts a
 * `checkout.completed` event signed as Creem signs (`creem-signature`: hex HMAC-SHA256 of the raw body with the
 * webhook secret) and sends the browser to `success_url`.
 */
import { createHmac } from 'node:crypto'

export interface FakeCreem {
  url: string
  apiKey: string
  webhookSecret: string
  webhookUrl: string
  /** product id → [price in cents, currency] */
  products: Map<string, [number, string]>
  checkouts: Map<string, Record<string, any>>
  event(checkoutId: string, patch?: { amount?: number; currency?: string; eventType?: string }): { payload: string; signature: string }
  deliver(checkoutId: string, patch?: { amount?: number; currency?: string; eventType?: string }, signature?: string): Promise<number>
  stop(): void
}

export function startFakeCreem(): FakeCreem {
  const checkouts = new Map<string, Record<string, any>>()
  let n = 0
  const fake: FakeCreem = {
    url: '',
    apiKey: 'creem_test_key_0123',
    webhookSecret: 'whsec_creem_0123',
    webhookUrl: '',
    products: new Map([['prod_small', [500, 'USD']]]),
    checkouts,
    event(checkoutId, patch = {}) {
      const checkout = checkouts.get(checkoutId)!
      const [price, currency] = fake.products.get(checkout.product_id)!
      const payload = JSON.stringify({
        id: `evt_${++n}`,
        eventType: patch.eventType ?? 'checkout.completed',
        created_at: Date.now(),
        object: {
          id: checkoutId,
          object: 'checkout',
          request_id: checkout.request_id,
          order: { id: `ord_${n}`, product: checkout.product_id, amount: patch.amount ?? price, currency: patch.currency ?? currency, status: 'paid' },
          metadata: checkout.metadata,
          status: 'completed',
        },
      })
      return { payload, signature: createHmac('sha256', fake.webhookSecret).update(payload).digest('hex') }
    },
    async deliver(checkoutId, patch, forged) {
      const { payload, signature } = fake.event(checkoutId, patch)
      const response = await fetch(fake.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'creem-signature': forged ?? signature }, body: payload })
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
      if (url.pathname === '/v1/products/search' && request.method === 'GET') {
        if (request.headers.get('x-api-key') !== fake.apiKey) return Response.json({ message: 'Unauthorized' }, { status: 403 })
        return Response.json({ items: [...fake.products.keys()].map((id) => ({ id, object: 'product' })), pagination: { total_records: fake.products.size } })
      }
      if (url.pathname === '/v1/checkouts' && request.method === 'POST') {
        if (request.headers.get('x-api-key') !== fake.apiKey) return Response.json({ message: 'Unauthorized' }, { status: 403 })
        const body = (await request.json()) as Record<string, any>
        if (!fake.products.has(body.product_id)) return Response.json({ message: 'Product not found' }, { status: 404 })
        const id = `ch_${++n}`
        checkouts.set(id, { ...body, id })
        return Response.json({ id, object: 'checkout', status: 'pending', product: body.product_id, request_id: body.request_id, checkout_url: `${fake.url}/checkout/${id}` })
      }
      const page = /^\/checkout\/(\w+)$/.exec(url.pathname)
      if (page && checkouts.has(page[1]!)) {
        const checkout = checkouts.get(page[1]!)!
        if (request.method === 'GET') {
          const [price] = fake.products.get(checkout.product_id)!
          return new Response(`<!doctype html><title>Creem (fake)</title><h1>Pay US$${(price / 100).toFixed(2)}</h1><form method="post"><button>Pay</button></form>`, { headers: { 'content-type': 'text/html' } })
        }
        const status = await fake.deliver(checkout.id)
        if (status !== 200) return new Response(`merchant answered ${status}`, { status: 500 })
        return Response.redirect(checkout.success_url, 303)
      }
      return new Response('not found', { status: 404 })
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
