import type { OptionDefinition } from './option-definition'

/**
 * Online top-up (src/payments): new-api's option names. Secrets are stored sealed (crypto/secret-box) and
 * never shown: GET /api/option/ answers them masked.
 */
const nonNegative = (value: unknown) => ((value as number) < 0 ? 'must not be negative' : undefined)
const positive = (value: unknown) => ((value as number) <= 0 ? 'must be more than 0' : undefined)
const atLeastOne = (value: unknown) => ((value as number) < 1 ? 'must be at least 1' : undefined)

/** '' or an absolute http(s) URL without query or trailing slash. */
const httpAddress = (value: unknown) => {
  const text = value as string
  if (text === '') return undefined
  try {
    const url = new URL(text)
    if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password || text.endsWith('/')) throw new Error()
    return undefined
  } catch {
    return 'must be an absolute http(s) URL without query, credentials or trailing slash (or empty)'
  }
}

const jsonArray = (text: string): unknown[] | undefined => {
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** `[10, 20, 50]`: up to 20 preset amounts, positive integers. */
const amountOptions = (value: unknown) => {
  const list = jsonArray(value as string)
  if (!list || list.length > 20 || !list.every((n) => Number.isSafeInteger(n) && (n as number) > 0 && (n as number) <= 1_000_000)) {
    return 'must be a JSON array of at most 20 positive whole amounts, like [10, 20, 50]'
  }
  return undefined
}

/** `{"100": 0.95}`: amount → the share of the price paid (0 < d ≤ 1). */
const amountDiscount = (value: unknown) => {
  for (const [amount, d] of Object.entries(value as Record<string, unknown>)) {
    if (!/^[1-9]\d{0,6}$/.test(amount)) return `"${amount}" must be a whole amount`
    if (typeof d !== 'number' || !(d > 0 && d <= 1)) return `"${amount}" must be a number above 0 and at most 1`
  }
  return undefined
}

/** `{"vip": 0.9}`: group → price multiplier (> 0). */
const groupRatios = (value: unknown) => {
  for (const [group, r] of Object.entries(value as Record<string, unknown>)) {
    if (!group.trim()) return 'has an empty group name'
    if (typeof r !== 'number' || !(r > 0) || !Number.isFinite(r)) return `"${group}" must be a positive number`
  }
  return undefined
}

/** `[{"name":"Alipay","type":"alipay","color":"#1677FF"}]`: EPay's methods. */
const payMethods = (value: unknown) => {
  const list = jsonArray(value as string)
  const fine = (m: unknown) => {
    const method = m as Record<string, unknown>
    return typeof m === 'object' && m !== null && typeof method.name === 'string' && typeof method.type === 'string' && /^[a-z0-9_]{1,32}$/.test(method.type)
  }
  if (!list || list.length > 20 || !list.every(fine)) return 'must be a JSON array of {"name", "type" (a-z, 0-9, _), "color"?}, at most 20'
  return undefined
}

/** `[{"productId":"prod_…","name":"…","price":10,"currency":"USD","quota":5000000}]` */
const creemProducts = (value: unknown) => {
  const list = jsonArray(value as string)
  const fine = (p: unknown) => {
    const product = p as Record<string, unknown>
    return (
      typeof p === 'object' && p !== null &&
      typeof product.productId === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(product.productId) &&
      typeof product.name === 'string' &&
      typeof product.price === 'number' && product.price > 0 &&
      typeof product.currency === 'string' && /^[A-Za-z]{3}$/.test(product.currency) &&
      Number.isSafeInteger(product.quota) && (product.quota as number) > 0
    )
  }
  if (!list || list.length > 100 || !list.every(fine)) return 'must be a JSON array of {"productId", "name", "price" (> 0), "currency" (USD, EUR…), "quota" (> 0)}, at most 100'
  return undefined
}

const DEFAULT_PAY_METHODS = JSON.stringify([
  { name: '支付宝', type: 'alipay', color: '#1677FF' },
  { name: '微信', type: 'wxpay', color: '#07C160' },
])

export const PAYMENT_OPTIONS: Record<string, OptionDefinition> = {
  PayAddress: { type: 'string', default: '', description: "EPay (易支付): the gateway's address, e.g. https://pay.example.com (submit.php is under it)", check: httpAddress },
  EpayId: { type: 'string', default: '', description: 'EPay: the merchant id (pid)' },
  EpayKey: { type: 'string', default: '', description: 'EPay: the merchant key that signs requests and notifies (stored encrypted, never shown)', secret: true },
  PayMethods: { type: 'string', default: DEFAULT_PAY_METHODS, description: 'EPay: the methods offered, a JSON array of {"name", "type", "color"}', check: payMethods },
  Price: { type: 'number', default: '7.3', description: 'EPay: CNY paid per US$1 of quota', check: positive },
  MinTopUp: { type: 'integer', default: '1', description: 'EPay: the smallest amount (US$ of quota) one order may buy', check: atLeastOne },
  TopupGroupRatio: { type: 'json', default: '{"default":1}', description: 'group → multiplier of the top-up price (missing group = 1)', check: groupRatios },
  AmountOptions: { type: 'string', default: '[10,20,50,100,200,500]', description: 'preset amounts the wallet offers, a JSON array', check: amountOptions },
  AmountDiscount: { type: 'json', default: '{}', description: 'amount → the share of the price paid for it, e.g. {"100": 0.95}', check: amountDiscount },
  CustomCallbackAddress: { type: 'string', default: '', description: "the address providers call back (notify, return pages); '' = ServerAddress, or the address the console is opened at", check: httpAddress },
  StripeApiSecret: { type: 'string', default: '', description: 'Stripe: the secret API key, sk_live_… or sk_test_… (stored encrypted, never shown)', secret: true },
  StripeWebhookSecret: { type: 'string', default: '', description: "Stripe: the webhook endpoint's signing secret, whsec_… (stored encrypted, never shown)", secret: true },
  StripeUnitPrice: { type: 'number', default: '1', description: 'Stripe: US$ paid per US$1 of quota', check: positive },
  StripeMinTopUp: { type: 'integer', default: '1', description: 'Stripe: the smallest amount (US$ of quota) one order may buy', check: atLeastOne },
  StripePromotionCodesEnabled: { type: 'boolean', default: 'false', description: "Stripe: the checkout page takes promotion codes (Stripe's amount then differs from the order's: such a payment is left for an admin to complete)" },
  CreemApiKey: { type: 'string', default: '', description: 'Creem: the API key (stored encrypted, never shown)', secret: true },
  CreemWebhookSecret: { type: 'string', default: '', description: "Creem: the webhook's signing secret (stored encrypted, never shown)", secret: true },
  CreemProducts: { type: 'string', default: '[]', description: 'Creem: the products offered, a JSON array of {"productId", "name", "price", "currency", "quota"}', check: creemProducts },
  CreemTestMode: { type: 'boolean', default: 'false', description: "Creem: use the test API (test-api.creem.io) and test keys" },
  TopUpPendingLimit: { type: 'integer', default: '10', description: 'unpaid orders one user may open per hour; more get 429', check: nonNegative },
  TopUpOrderExpireMinutes: {
    type: 'integer',
    default: '60',
    description: "minutes an unpaid order waits for its payment, then reads as expired (30 to 1440, the span Stripe's checkout allows)",
    check: (value) => ((value as number) < 30 || (value as number) > 1440 ? 'must be from 30 to 1440 minutes' : undefined),
  },
}
