/** One app with all three providers pointed at their fakes, a root session that saved the settings through the API, and a user. */
import { addUser, as, login } from '../../helpers/accounts'
import { startFakeCreem, type FakeCreem } from '../../helpers/fake-payments/creem'
import { startFakeEpay, type FakeEpay } from '../../helpers/fake-payments/epay'
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-payments/stripe'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

export interface PaymentWorld {
  app: TestApp
  epay: FakeEpay
  stripe: FakeStripe
  creem: FakeCreem
  root: string
  user: string
  userId: number
  balance(): Promise<number>
  stop(): Promise<void>
}

export async function startPaymentWorld(env: Record<string, string> = {}): Promise<PaymentWorld> {
  const epay = startFakeEpay()
  const stripe = startFakeStripe()
  const creem = startFakeCreem()
  const app = await startTestApp({ PROVIDER_ENDPOINTS: JSON.stringify({ stripe: stripe.url, creem: creem.url }), ...env })
  stripe.webhookUrl = `${app.url}/api/stripe/webhook`
  creem.webhookUrl = `${app.url}/api/creem/webhook`
  const root = await login(app)
  const settings: Record<string, unknown> = {
    PayAddress: epay.url,
    EpayId: epay.pid,
    EpayKey: epay.key,
    StripeApiSecret: stripe.apiKey,
    StripeWebhookSecret: stripe.webhookSecret,
    CreemApiKey: creem.apiKey,
    CreemWebhookSecret: creem.webhookSecret,
    CreemProducts: JSON.stringify([{ productId: 'prod_small', name: 'Small pack', price: 5, currency: 'USD', quota: 2_500_000 }]),
    AmountDiscount: { '100': 0.9 },
  }
  for (const [key, value] of Object.entries(settings)) {
    const res = await call(app, 'PUT', '/api/option/', { key, value }, as(root))
    if (res.status !== 200) throw new Error(`cannot set ${key}: ${JSON.stringify(res.body)}`)
  }
  const userId = (await addUser(app, { username: 'payer', quota: 0 })).id
  const user = await login(app, 'payer')
  return {
    app,
    epay,
    stripe,
    creem,
    root,
    user,
    userId,
    async balance() {
      app.deps.repos.users.forget(userId)
      return (await app.deps.repos.users.findById(userId))!.quota
    },
    async stop() {
      await app.stop()
      epay.stop()
      stripe.stop()
      creem.stop()
    },
  }
}
