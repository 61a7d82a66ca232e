import { creemBase } from './creem'
import { PaymentError } from './quote'
import { creemSettings, stripeSettings } from './settings'
import { stripeClient } from './stripe'
import type { PaymentDeps } from './types'

export interface ProviderTest {
  /** whether the provider's API allows a test at all (EPay's has no read with the merchant key) */
  supported: boolean
  ok: boolean
  message: string
  /** why a test failed, stable for the console to word: the provider refused the key, answered an HTTP error, or could not be reached */
  code?: 'provider_refused' | 'provider_status' | 'provider_unreachable'
  /** the provider's HTTP status, with `provider_status` */
  status?: number
}

const notConfigured = (provider: string) => new PaymentError('provider_disabled', `${provider} payments are not set up on this instance`, 'provider')

/**
 * One authenticated read with the saved keys, nothing bought: Stripe's balance (through the SDK), one page of Creem's
 * products. EPay's protocol has no call that proves the merchant key short of a payment, so it says so.
 */
export async function testProvider(deps: PaymentDeps, provider: 'epay' | 'stripe' | 'creem'): Promise<ProviderTest> {
  if (provider === 'epay') return { supported: false, ok: false, message: 'EPay has no API call that checks the merchant key without a payment: make a 0.01 order to test it' }
  if (provider === 'stripe') {
    const settings = await stripeSettings(deps)
    if (!settings) throw notConfigured('Stripe')
    try {
      const balance = await (await stripeClient(settings.secret, deps.fetch)).balance.retrieve()
      return { supported: true, ok: true, message: `Stripe accepted the key (${balance.livemode ? 'live' : 'test'} mode)` }
    } catch (error) {
      return { supported: true, ok: false, code: 'provider_refused', message: `Stripe refused: ${(error as Error).message}` }
    }
  }
  const settings = await creemSettings(deps)
  if (!settings) throw notConfigured('Creem')
  try {
    const response = await deps.fetch(`${creemBase(settings.testMode)}/v1/products/search?page_number=1&page_size=1`, { headers: { 'x-api-key': settings.apiKey }, signal: AbortSignal.timeout(20_000) })
    await response.body?.cancel()
    return response.ok ? { supported: true, ok: true, message: `Creem accepted the key (${settings.testMode ? 'test' : 'live'} mode)` } : { supported: true, ok: false, code: response.status === 401 || response.status === 403 ? 'provider_refused' : 'provider_status', status: response.status, message: `Creem answered ${response.status}` }
  } catch (error) {
    return { supported: true, ok: false, code: 'provider_unreachable', message: `Creem could not be reached: ${(error as Error).message}` }
  }
}
