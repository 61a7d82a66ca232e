/**
 * Settings' "test" per provider (`POST /api/payment/test`, root): Stripe's balance read with the saved key through
 * the SDK and Creem's product list, each against its fake; a wrong key reads as a failed test, not an error; EPay says
 * its protocol has none; only root may ask.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { as } from '../../helpers/accounts'
import { call } from '../../helpers/test-app'
import { startPaymentWorld, type PaymentWorld } from './setup'

let w: PaymentWorld
beforeAll(async () => {
  w = await startPaymentWorld()
})
afterAll(() => w.stop())

const probe = (provider: string, session = w.root) => call(w.app, 'POST', '/api/payment/test', { provider }, as(session))

test('Stripe and Creem accept the saved keys; EPay has no test', async () => {
  expect((await probe('stripe')).body.data).toMatchObject({ supported: true, ok: true })
  expect((await probe('creem')).body.data).toMatchObject({ supported: true, ok: true })
  expect((await probe('epay')).body.data).toMatchObject({ supported: false, ok: false })
})

test('a key the provider refuses reads as a failed test; an unknown provider is a 400; a user may not ask', async () => {
  const stripeKey = w.stripe.apiKey
  const creemKey = w.creem.apiKey
  w.stripe.apiKey = 'sk_test_other'
  w.creem.apiKey = 'creem_other'
  try {
    const stripe = await probe('stripe')
    expect(stripe.status).toBe(200)
    expect(stripe.body.data).toMatchObject({ ok: false, code: 'provider_refused' })
    expect(stripe.body.data.message).toContain('Stripe refused')
    expect((await probe('creem')).body.data).toMatchObject({ ok: false, code: 'provider_refused', status: 403, message: 'Creem answered 403' })
  } finally {
    w.stripe.apiKey = stripeKey
    w.creem.apiKey = creemKey
  }
  expect((await probe('paypal')).status).toBe(400)
  expect((await probe('stripe', w.user)).status).toBe(403)
})
