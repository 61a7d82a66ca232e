import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { clientIpOf, enforceBodyLimit, type Arrival, type IpSource } from '../../plugins/request-context'
import { creemWebhook, epayNotify, stripeWebhook, type NotificationNote, type WebhookAnswer } from '../../payments/notifications'
import type { PaymentDeps } from '../../payments/types'

/** What a notify's handler reads of its context: the request, the peer, and the arrival (its request id). */
interface WebhookContext {
  request: Request
  server: IpSource
  arrival?: Arrival
}

/** A provider's notify or webhook body is small: 64 KiB is far past any of them. */
const WEBHOOK_MAX_BYTES = 64 * 1024

/**
 * The provider's answer: its plain text when accepted (EPay reads `success`/`fail`), a refusal in the /api
 * envelope like every other route's (providers read only the status).
 */
const text = (answer: WebhookAnswer | string) => {
  if (typeof answer === 'string') return new Response(answer, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
  if (answer.status < 400) return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'text/plain; charset=utf-8' } })
  return Response.json({ success: false, message: answer.body, data: { code: 'webhook_refused' } }, { status: answer.status })
}

/** Providers' notifies and webhooks: the raw body (bounded) checked against its signature before anything is read from it. */
export function paymentWebhooks(deps: AppDeps, payments: PaymentDeps) {
  const context = ({ request, server, arrival }: WebhookContext) => ({
    ip: clientIpOf(request, server, deps.config.trustProxy),
    requestId: arrival?.id,
    note: (note: NotificationNote) => deps.ops.log.info({ ...note, request_id: arrival?.id ?? null }, 'payment notification'),
  })
  const rawBody = async (request: Request) => {
    enforceBodyLimit(request, WEBHOOK_MAX_BYTES)
    return request.text()
  }
  const epay = async ({ request, server, arrival }: WebhookContext) => {
    const params = request.method === 'POST' ? new URLSearchParams(await rawBody(request)) : new URL(request.url).searchParams
    if ([...params.keys()].length > 50) return text('fail')
    return text(await epayNotify(payments, Object.fromEntries(params), context({ request, server, arrival })))
  }
  return new Elysia({ name: 'payment-webhooks' })
    .get('/api/user/epay/notify', ({ request, server, arrival }: WebhookContext) => epay({ request, server, arrival }))
    .post('/api/user/epay/notify', ({ request, server, arrival }: WebhookContext) => epay({ request, server, arrival }), { parse: 'none' })
    .post(
      '/api/stripe/webhook',
      async ({ request, server, arrival }: WebhookContext) => text(await stripeWebhook(payments, await rawBody(request), request.headers.get('stripe-signature') ?? '', context({ request, server, arrival }))),
      { parse: 'none' },
    )
    .post(
      '/api/creem/webhook',
      async ({ request, server, arrival }: WebhookContext) => text(await creemWebhook(payments, await rawBody(request), request.headers.get('creem-signature') ?? '', context({ request, server, arrival }))),
      { parse: 'none' },
    )
}
