import { afterAll, beforeAll, expect, test } from 'bun:test'
import { login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

/** The console's options: ServerAddress (checked), DisplayInCurrencyEnabled, PublicPricingEnabled, all in /api/status. */
let app: TestApp
let root: string
beforeAll(async () => {
  app = await startTestApp()
  root = await login(app)
})
afterAll(() => app.stop())

const put = (key: string, value: unknown) => call(app, 'PUT', '/api/option/', { key, value }, { cookie: root })
const status = async () => (await call(app, 'GET', '/api/status')).body.data

test('defaults, as /api/status shows them to anyone', async () => {
  expect(await status()).toMatchObject({ server_address: '', display_in_currency: true, public_pricing_enabled: false })
})

test('ServerAddress: an absolute http(s) URL without a trailing slash, or empty', async () => {
  for (const good of ['https://api.example.com', 'http://10.0.0.5:3000', 'https://example.com/gateway']) {
    const res = await put('ServerAddress', good)
    expect(res.status, good).toBe(200)
    expect((await status()).server_address).toBe(good)
    expect((await app.deps.repos.options.all()).ServerAddress).toBe(good)
  }
  for (const bad of ['https://api.example.com/', 'api.example.com', 'ftp://example.com', 'https://', 'https://a b.com', 'https://example.com?x=1', 'https://u:p@example.com']) {
    const res = await put('ServerAddress', bad)
    expect(res.status, bad).toBe(400)
    expect(res.body.success).toBe(false)
    expect(res.body.message).toContain('ServerAddress')
  }
  expect((await status()).server_address).toBe('https://example.com/gateway') // refused values changed nothing
  expect((await put('ServerAddress', '')).status).toBe(200)
  expect((await status()).server_address).toBe('')
})

test('the two switches are booleans, shown in /api/status', async () => {
  expect((await put('DisplayInCurrencyEnabled', false)).status).toBe(200)
  expect((await put('PublicPricingEnabled', 'true')).status).toBe(200)
  expect(await status()).toMatchObject({ display_in_currency: false, public_pricing_enabled: true })
  expect((await put('PublicPricingEnabled', 'yes')).status).toBe(400)
})
