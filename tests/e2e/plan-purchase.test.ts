/**
 * Buying a subscription plan in Chromium against the built binary, through each provider's fake checkout page (EPay's
 * submit.php, Stripe Checkout, Creem checkout): the wallet's Plans card leaves for the provider's page, its Pay button
 * fires the signed notify or webhook and sends the browser back, and the wallet shows the plan held with its period's
 * quota, once per purchase (the wallet's balance untouched: a plan is not credited as quota).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { startFakeCreem, type FakeCreem } from '../helpers/fake-payments/creem'
import { startFakeEpay, type FakeEpay } from '../helpers/fake-payments/epay'
import { startFakeStripe, type FakeStripe } from '../helpers/fake-payments/stripe'
import { apiLogin, browserAvailable, E2E_TIMEOUT, sharedBrowser, loginContext, openPage, startGateway, type Gateway, type PageWatch } from './harness'

const ROOT_PASSWORD = 'e2e-root-password-1'
const BUYER = { username: 'buyer', password: 'buyer-password-1' }
// US$5 (Creem's fake product prod_small costs 500 cents), US$10 of quota a day
const PLAN = { title: 'Pro', price_amount: 5, currency: 'USD', duration_unit: 'month', duration_value: 1, total_amount: 5_000_000, quota_reset_period: 'daily', creem_product_id: 'prod_small' }

describe.skipIf(!browserAvailable)('console: buying a plan through the providers’ checkout pages', () => {
  let gw: Gateway
  let browser: Browser
  let epay: FakeEpay
  let stripe: FakeStripe
  let creem: FakeCreem
  let page: Page
  let watch: PageWatch
  let close = async () => {}

  beforeAll(async () => {
    epay = startFakeEpay()
    stripe = startFakeStripe()
    creem = startFakeCreem()
    ;[gw, browser] = await Promise.all([
      startGateway({ env: { ROOT_PASSWORD, PROVIDER_ENDPOINTS: JSON.stringify({ stripe: stripe.url, creem: creem.url }) } }),
      sharedBrowser(),
    ])
    stripe.webhookUrl = `${gw.url}/api/stripe/webhook`
    creem.webhookUrl = `${gw.url}/api/creem/webhook`
    const root = await apiLogin(gw, { username: 'root', password: ROOT_PASSWORD })
    const settings: Record<string, unknown> = {
      PayAddress: epay.url, EpayId: epay.pid, EpayKey: epay.key,
      StripeApiSecret: stripe.apiKey, StripeWebhookSecret: stripe.webhookSecret,
      CreemApiKey: creem.apiKey, CreemWebhookSecret: creem.webhookSecret,
      // Creem is on once it sells something: the top-up product (the plan's product is its own field)
      CreemProducts: JSON.stringify([{ productId: 'prod_small', name: 'Small pack', price: 5, currency: 'USD', quota: 2_500_000 }]),
    }
    for (const [key, value] of Object.entries(settings)) expect((await root.call('PUT', '/api/option/', { key, value })).status).toBe(200)
    expect((await root.call('POST', '/api/subscription/admin/plans', PLAN)).status).toBe(200)
    expect((await root.call('POST', '/api/user/', { ...BUYER, display_name: 'Buyer' })).status).toBe(200)
    const opened = await openPage(browser)
    ;({ page, watch } = opened)
    close = () => opened.context.close()
    await loginContext(opened.context, gw, BUYER)
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await close()
    await gw?.stop()
    epay?.stop()
    stripe?.stop()
    creem?.stop()
  })

  const plansCard = () => page.getByRole('region', { name: 'Plans' })
  const held = () => plansCard().getByRole('listitem').filter({ hasText: '$0.00 of $10.00 used this period' })

  /** The plan's button for `method`, the provider's Pay, then back on the wallet with `count` plans held. */
  async function buy(method: RegExp, providerHost: string, returned: RegExp, count: number) {
    await page.goto(`${gw.url}/wallet`)
    await plansCard().getByRole('heading', { name: 'Plans to buy' }).waitFor()
    await plansCard().getByRole('button', { name: method }).click()
    await page.waitForURL((url) => url.href.startsWith(providerHost), { timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nat ${page.url()}: ${await page.locator('main').textContent()}\n${watch.consoleErrors.join('\n')}`)
    })
    await page.getByRole('button', { name: 'Pay' }).click()
    await page.waitForURL(returned)
    await held().nth(count - 1).waitFor({ timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nat ${page.url()}: ${await page.locator('body').textContent()}`)
    })
    await expect(held().count()).resolves.toBe(count)
  }

  test('EPay: the signed form goes to submit.php; paying there grants the plan with its day’s quota', async () => {
    await page.goto(`${gw.url}/wallet`)
    await plansCard().getByText('You hold no plan.').waitFor()
    await buy(/^Pay Pro with 支付宝/, epay.url, /\/wallet\?paid=epay$/, 1)
    await expect(page.locator('.cards .card .figure').first().textContent()).resolves.toBe('$0.00') // no quota credited
  }, E2E_TIMEOUT)

  test('Stripe: the Checkout page; paying there grants a second one', async () => {
    await buy(/^Pay Pro with Stripe/, stripe.url, /\/wallet\?paid=stripe$/, 2)
  }, E2E_TIMEOUT)

  test('Creem: the plan’s product; paying at Creem grants a third', async () => {
    await buy(/^Pay Pro with Creem/, creem.url, /\/wallet\?paid=creem$/, 3)
    // what pays first is offered once a plan is held
    await expect(plansCard().getByLabel('What pays first').inputValue()).resolves.toBe('subscription_first')
    watch.assertClean()
  }, E2E_TIMEOUT)
})
