/**
 * Online top-up in Chromium against the built binary, through each provider's fake checkout page (EPay's
 * submit.php, Stripe Checkout, Creem checkout; PROVIDER_ENDPOINTS sends the SDK and Creem's API to the fakes):
 * the wallet's Pay (or Buy) leaves for the provider's page, its Pay button fires the signed notify or webhook and
 * sends the browser back, and the wallet shows the new balance and the paid order.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { startFakeCreem, type FakeCreem } from '../helpers/fake-payments/creem'
import { startFakeEpay, type FakeEpay } from '../helpers/fake-payments/epay'
import { startFakeStripe, type FakeStripe } from '../helpers/fake-payments/stripe'
import { apiLogin, browserAvailable, E2E_TIMEOUT, sharedBrowser, loginContext, openPage, startGateway, type Gateway, type PageWatch } from './harness'

const ROOT_PASSWORD = 'e2e-root-password-1'
const PAYER = { username: 'payer', password: 'payer-password-1' }

describe.skipIf(!browserAvailable)('console: online top-up through the providers’ checkout pages', () => {
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
      CreemProducts: JSON.stringify([{ productId: 'prod_small', name: 'Small pack', price: 5, currency: 'USD', quota: 2_500_000 }]),
    }
    for (const [key, value] of Object.entries(settings)) expect((await root.call('PUT', '/api/option/', { key, value })).status).toBe(200)
    expect((await root.call('POST', '/api/user/', { ...PAYER, display_name: 'Payer' })).status).toBe(200)
    const opened = await openPage(browser)
    ;({ page, watch } = opened)
    close = () => opened.context.close()
    await loginContext(opened.context, gw, PAYER)
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await close()
    await gw?.stop()
    epay?.stop()
    stripe?.stop()
    creem?.stop()
  })

  const balance = () => page.locator('.cards .card .figure').first()

  /** On the provider's page: its Pay button, then back on the wallet with the balance it should show. */
  async function payThere(providerHost: string, returned: RegExp, expected: string) {
    await page.waitForURL((url) => url.href.startsWith(providerHost), { timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nat ${page.url()}: ${await page.locator('main').textContent()}\n${watch.consoleErrors.join('\n')}`)
    })
    await page.getByRole('button', { name: 'Pay' }).click()
    await page.waitForURL(returned)
    await balance().filter({ hasText: expected }).waitFor({ timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nat ${page.url()}: ${await page.locator('body').textContent()}`)
    })
  }

  test('EPay: the signed form goes to submit.php; paying there credits US$10', async () => {
    await page.goto(`${gw.url}/wallet`)
    await page.getByRole('heading', { name: 'Top up online' }).waitFor()
    await expect(balance().textContent()).resolves.toBe('$0.00')
    await page.getByLabel('Amount (US$ of quota)').fill('10')
    await page.getByLabel('Payment method').selectOption('alipay')
    await page.getByText('You pay 73.00 CNY, you get US$10 of quota.').waitFor()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await payThere(epay.url, /\/wallet\?paid=epay$/, '$10.00')
    const orders = page.getByRole('table', { name: 'My orders' })
    await orders.getByText('Paid').first().waitFor()
    await expect(orders.getByText('CN¥73.00').count()).resolves.toBe(1)
  }, E2E_TIMEOUT)

  test('Stripe: the Checkout page; paying there credits US$20 more', async () => {
    await page.goto(`${gw.url}/wallet`)
    await page.getByLabel('Amount (US$ of quota)').fill('20')
    await page.getByLabel('Payment method').selectOption('stripe')
    await page.getByText('You pay 20.00 USD, you get US$20 of quota.').waitFor()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await payThere(stripe.url, /\/wallet\?paid=stripe$/, '$30.00')
  }, E2E_TIMEOUT)

  test('Creem: Buy on a product; paying at Creem credits its quota', async () => {
    await page.goto(`${gw.url}/wallet`)
    await page.getByRole('button', { name: 'Buy' }).click()
    await payThere(creem.url, /\/wallet\?paid=creem$/, '$35.00')
    const orders = page.getByRole('table', { name: 'My orders' })
    await orders.getByText('Paid').nth(2).waitFor() // the list loads after the page: wait for the third paid order
    await expect(orders.getByText('Paid').count()).resolves.toBe(3)
    watch.assertClean()
  }, E2E_TIMEOUT)
})
