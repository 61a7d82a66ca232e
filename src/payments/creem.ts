import { createHmac, timingSafeEqual } from 'node:crypto'
import type { OutboundFetch } from '../outbound/fetch'
import type { CreemSettings } from './settings'

/** Creem's API: live and test hosts (PROVIDER_ENDPOINTS' `creem` moves both). */
export const creemBase = (testMode: boolean) => (testMode ? 'https://test-api.creem.io' : 'https://api.creem.io')

/** Creem's webhook signature: HMAC-SHA256 of the raw body with the webhook secret, hex, in `creem-signature`. */
function creemSignature(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload, 'utf8').digest('hex')
}

export function creemVerify(payload: string, signature: string, secret: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(signature)) return false
  return timingSafeEqual(Buffer.from(signature.toLowerCase()), Buffer.from(creemSignature(payload, secret)))
}

export class CreemFailed extends Error {}

/** A checkout for one product, the trade number as its `request_id`; answers Creem's checkout id and page. */
export async function createCreemCheckout(
  dial: OutboundFetch,
  settings: CreemSettings,
  input: { productId: string; tradeNo: string; userId: number; successUrl: string; email?: string },
): Promise<{ id: string; url: string }> {
  const response = await dial(`${creemBase(settings.testMode)}/v1/checkouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': settings.apiKey },
    body: JSON.stringify({
      product_id: input.productId,
      request_id: input.tradeNo,
      success_url: input.successUrl,
      metadata: { trade_no: input.tradeNo, user_id: String(input.userId) },
      ...(input.email ? { customer: { email: input.email } } : {}),
    }),
    signal: AbortSignal.timeout(20_000),
  })
  const text = await response.text()
  if (!response.ok) throw new CreemFailed(`Creem answered ${response.status}`)
  let body: { id?: unknown; checkout_url?: unknown }
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    throw new CreemFailed('Creem answered something other than JSON')
  }
  if (typeof body.checkout_url !== 'string' || typeof body.id !== 'string') throw new CreemFailed('Creem answered without a checkout URL')
  return { id: body.id, url: body.checkout_url }
}
