import { openSecret } from '../options/secret-options'
import type { PaymentDeps } from './types'

export interface EpaySettings {
  address: string
  pid: string
  key: string
  methods: { name: string; type: string; color?: string }[]
}
export interface StripeSettings {
  secret: string
  webhookSecret: string
}
interface CreemProduct {
  productId: string
  name: string
  price: number
  currency: string
  quota: number
}
export interface CreemSettings {
  apiKey: string
  webhookSecret: string
  testMode: boolean
  products: CreemProduct[]
}

const parseList = <T>(text: string): T[] => {
  try {
    const list: unknown = JSON.parse(text)
    return Array.isArray(list) ? (list as T[]) : []
  } catch {
    return []
  }
}

/** EPay's settings when complete (address, merchant id and key), else undefined: a provider is on when its settings are complete. */
export async function epaySettings(deps: Pick<PaymentDeps, 'options' | 'box'>): Promise<EpaySettings | undefined> {
  const address = deps.options.get<string>('PayAddress')
  const pid = deps.options.get<string>('EpayId').trim()
  const key = await openSecret(deps.box, deps.options.get<string>('EpayKey'))
  if (!address || !pid || !key) return undefined
  return { address, pid, key, methods: parseList(deps.options.get<string>('PayMethods')) }
}

/** Stripe's settings when both the API key and the webhook's signing secret are set. */
export async function stripeSettings(deps: Pick<PaymentDeps, 'options' | 'box'>): Promise<StripeSettings | undefined> {
  const secret = await openSecret(deps.box, deps.options.get<string>('StripeApiSecret'))
  const webhookSecret = await openSecret(deps.box, deps.options.get<string>('StripeWebhookSecret'))
  return secret && webhookSecret ? { secret, webhookSecret } : undefined
}

/** Creem's settings when the API key, the webhook secret and at least one product are set. */
export async function creemSettings(deps: Pick<PaymentDeps, 'options' | 'box'>): Promise<CreemSettings | undefined> {
  const apiKey = await openSecret(deps.box, deps.options.get<string>('CreemApiKey'))
  const webhookSecret = await openSecret(deps.box, deps.options.get<string>('CreemWebhookSecret'))
  const products = parseList<CreemProduct>(deps.options.get<string>('CreemProducts'))
  if (!apiKey || !webhookSecret || products.length === 0) return undefined
  return { apiKey, webhookSecret, testMode: deps.options.get<boolean>('CreemTestMode'), products }
}
