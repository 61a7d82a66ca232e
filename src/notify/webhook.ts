import { createHmac } from 'node:crypto'
import { OutboundRefused, type OutboundFetch } from '../outbound/fetch'

/** new-api's webhook body: `content` with its `{{value}}` placeholders filled, the values as given, unix seconds. */
export interface WebhookPayload {
  type: string
  title: string
  content: string
  values: (string | number)[]
  timestamp: number
}

export interface WebhookDelivery {
  fetch: OutboundFetch
  /** waits between attempts, ms: one more attempt than waits (default 1 s, 5 s: three attempts) */
  retryDelaysMs?: number[]
  timeoutMs?: number
}

const DEFAULT_DELAYS = [1000, 5000]

/** Hex HMAC-SHA256 of the exact body bytes with the user's secret (new-api's `X-Webhook-Signature`). */
function webhookSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex')
}

/**
 * POST the payload through the outbound guard: a 2xx is delivered; a 5xx, 408, 429 or a failed connection is tried
 * again after each wait; anything else (a 4xx, a redirect, a refused address) ends it. The answer's body is not read.
 * Throws the last reason when not delivered.
 */
export async function deliverWebhook(delivery: WebhookDelivery, url: string, secret: string, payload: WebhookPayload): Promise<void> {
  const body = JSON.stringify(payload)
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Tollgate-Webhook', 'x-webhook-timestamp': String(payload.timestamp) }
  if (secret) headers['x-webhook-signature'] = webhookSignature(secret, body)
  const delays = delivery.retryDelaysMs ?? DEFAULT_DELAYS
  let reason = ''
  for (let attempt = 0; attempt <= delays.length; attempt++) {
    if (attempt > 0) await Bun.sleep(delays[attempt - 1]!)
    const result = await attemptOnce(delivery, url, headers, body)
    if (result.ok) return
    reason = result.reason
    if (!result.retry) break
  }
  throw new Error(`webhook not delivered: ${reason}`)
}

async function attemptOnce(delivery: WebhookDelivery, url: string, headers: Record<string, string>, body: string): Promise<{ ok: true } | { ok: false; retry: boolean; reason: string }> {
  let response: Response
  try {
    response = await delivery.fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(delivery.timeoutMs ?? 10_000) })
  } catch (error) {
    // a refused address or a redirect stays so: only a connection that failed is worth another attempt
    return { ok: false, retry: !(error instanceof OutboundRefused), reason: (error as Error).message.slice(0, 300) }
  }
  await response.body?.cancel().catch(() => {})
  if (response.ok) return { ok: true }
  const retry = response.status >= 500 || response.status === 408 || response.status === 429
  return { ok: false, retry, reason: `the receiver answered ${response.status}` }
}
