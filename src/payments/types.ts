import type { SecretBox } from '../crypto/secret-box'
import type { Repos } from '../db/repos'
import type { OptionStore } from '../options/store'
import type { OutboundFetch } from '../outbound/fetch'

/** What the payment services use: settings, orders and balances, the outbound guard, the box that opens secrets. */
export interface PaymentDeps {
  options: Pick<OptionStore, 'get'>
  repos: Pick<Repos, 'topups' | 'users' | 'subscriptions'>
  fetch: OutboundFetch
  box: SecretBox
  /** unix seconds (AppDeps' clock: tests set it) */
  now(): number
}
