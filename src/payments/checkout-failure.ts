import { CreemFailed } from './creem'
import { PaymentError } from './quote'
import type { PaymentDeps } from './types'

/**
 * A provider's call that opens a checkout for an order just opened: when it fails, the order is marked failed (it
 * will never be paid) and the client hears, in a 502 with a stable code, that the provider did not answer.
 */
export async function checkoutOrFail<T>(deps: Pick<PaymentDeps, 'repos' | 'now'>, tradeNo: string, provider: 'Stripe' | 'Creem', opening: Promise<T>): Promise<T> {
  try {
    return await opening
  } catch (error) {
    await deps.repos.topups.settleUnpaid(tradeNo, 'failed', deps.now())
    console.error(`${provider.toLowerCase()}: cannot create a checkout for ${tradeNo}: ${error instanceof CreemFailed ? error.message : (error as Error).message}`)
    throw new PaymentError('provider_failed', `${provider} did not open a checkout: try again later`, undefined, 502)
  }
}
