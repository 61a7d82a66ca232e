import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { addUser, as, login } from '../helpers/accounts'
import type { RelayEnv } from '../helpers/relay-env'
import { call } from '../helpers/test-app'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import { withSmtp } from '../mail/mail-setup'
import { account, chat, chatBody, startMeteredEnv, userRow } from '../metering/env'
import type { TestSmtp } from '../helpers/smtp-server'
import { fakeUpstream } from '../modules/channels/helpers'

/**
 * Issue #33, notifications: each user's settings (new-api's PUT /api/user/setting fields), the Test button, and the
 * three events (user quota low, channel auto-disabled, channel balance low) by signed webhook and by e-mail through a
 * real SMTP server, queued after the request is answered.
 */
const HOOK_HOST = 'hooks.example.test'
const SECRET = 'whsec-test-0123456789'
let env: RelayEnv
let receiver: WebhookReceiver
let smtp: TestSmtp
let rootCookie: string
const vendor = fakeUpstream(() => Response.json({ code: 0, status: true, scode: '0x0', data: { available_balance: 12.5, voucher_balance: 0, cash_balance: 12.5 } }))

const verified = (hook: { body: string; headers: Headers }) => createHmac('sha256', SECRET).update(hook.body).digest('hex') === hook.headers.get('x-webhook-signature')

beforeAll(async () => {
  receiver = startWebhookReceiver()
  env = await startMeteredEnv({ PROVIDER_ENDPOINTS: JSON.stringify({ [HOOK_HOST]: receiver.url }) })
  ;({ smtp, root: rootCookie } = await withSmtp(env.app))
  await env.addChannel({ type: 1, models: 'gpt-4o', name: 'openai' })
})
afterAll(async () => {
  await env.stop()
  await smtp.stop()
  receiver.stop()
  vendor.stop()
})
beforeEach(async () => {
  await env.app.deps.notifier.idle()
  receiver.reset()
})

async function userCookie(quota = 0, email = ''): Promise<{ id: number; cookie: string; username: string }> {
  const username = `n${crypto.randomUUID().slice(0, 8)}`
  const user = await addUser(env.app, { username, quota, email })
  return { id: user.id, username, cookie: await login(env.app, username) }
}

describe('PUT /api/user/setting', () => {
  test('bad settings are 400s with stable codes; nothing is saved', async () => {
    const { id, cookie } = await userCookie()
    const cases: [unknown, string][] = [
      [{ notify_type: 'bark', quota_warning_threshold: 10 }, 'notify_type_unsupported'],
      [{ notify_type: 'webhook', quota_warning_threshold: 10 }, 'webhook_url_required'],
      [{ notify_type: 'webhook', webhook_url: 'ftp://x.example/' }, 'webhook_url_invalid'],
      [{ notify_type: 'webhook', webhook_url: 'https://user:pw@x.example/' }, 'webhook_url_invalid'],
      // loopback, not named by PROVIDER_ENDPOINTS: WebhookPrivateNetworksAllowed is off
      [{ notify_type: 'webhook', webhook_url: `${receiver.url}/direct` }, 'webhook_url_refused'],
      [{ notify_type: 'webhook', webhook_url: `https://${HOOK_HOST}/x`, webhook_secret: 'short' }, 'webhook_secret_invalid'],
      [{ notify_type: 'email', notification_email: 'not-an-address' }, 'invalid_email'],
      [{ notify_type: 'email', quota_warning_threshold: 1.5 }, 'notify_threshold_invalid'],
    ]
    for (const [body, code] of cases) {
      const res = await call(env.app, 'PUT', '/api/user/setting', body, as(cookie))
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body).toMatchObject({ success: false, data: { code } })
    }
    expect((await call(env.app, 'PUT', '/api/user/setting', { notify_type: 'email', quota_warning_threshold: -1 }, as(cookie))).status).toBe(400)
    expect(await env.app.deps.repos.notifySettings.get(id)).toBeUndefined()
  })

  test('the secret is sealed at rest, masked when read, kept when not resent, and never in the manage log', async () => {
    const { id, cookie } = await userCookie()
    const defaults = await call(env.app, 'GET', '/api/user/setting', undefined, as(cookie))
    expect(defaults.body.data).toEqual({ notify_type: 'email', quota_warning_threshold: 0, webhook_url: '', webhook_secret: '', webhook_secret_set: false, notification_email: '' })
    const saved = await call(env.app, 'PUT', '/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: 5000, webhook_url: `https://${HOOK_HOST}/u`, webhook_secret: SECRET }, as(cookie))
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body.data).toMatchObject({ notify_type: 'webhook', quota_warning_threshold: 5000, webhook_secret: '********', webhook_secret_set: true })
    const row = (await env.app.deps.repos.notifySettings.get(id))!
    expect(row.webhookSecret).toStartWith('v1:')
    expect(row.webhookSecret).not.toContain(SECRET)
    // saved again without the secret (the console never has it): the one saved stays
    await call(env.app, 'PUT', '/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: 6000, webhook_url: `https://${HOOK_HOST}/u`, webhook_secret: '********' }, as(cookie))
    expect((await env.app.deps.repos.notifySettings.get(id))!.webhookSecret).toBe(row.webhookSecret)
    const read = await call(env.app, 'GET', '/api/user/setting', undefined, as(cookie))
    expect(JSON.stringify(read.body)).not.toContain(SECRET)
    await env.app.deps.metering.logs.flush()
    const logs = env.app.db.$client.query('SELECT content, other FROM logs').all()
    expect(JSON.stringify(logs)).not.toContain(SECRET)
  })
})

describe('the Test button', () => {
  test('a webhook test: new-api body, HMAC-SHA256 of the exact body with the secret, the timestamp header', async () => {
    const { cookie } = await userCookie()
    await call(env.app, 'PUT', '/api/user/setting', { notify_type: 'webhook', webhook_url: `https://${HOOK_HOST}/test-hook`, webhook_secret: SECRET }, as(cookie))
    const res = await call(env.app, 'POST', '/api/user/setting/test', undefined, as(cookie))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const hook = await receiver.next()
    expect(hook.path).toBe('/test-hook')
    expect(verified(hook)).toBe(true)
    expect(hook.json).toMatchObject({ type: 'test', title: expect.stringContaining('test notification') })
    expect(hook.headers.get('x-webhook-timestamp')).toBe(String(hook.json.timestamp))
    expect(Math.abs((hook.json.timestamp as number) - Date.now() / 1000)).toBeLessThan(60)
  })

  test('an e-mail test reaches the notification address through SMTP; a receiver that fails is a 502 notify_failed', async () => {
    const { cookie } = await userCookie(0, 'account@example.com')
    await call(env.app, 'PUT', '/api/user/setting', { notify_type: 'email', notification_email: 'Alerts@Example.com' }, as(cookie))
    const res = await call(env.app, 'POST', '/api/user/setting/test', undefined, as(cookie))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const mail = await smtp.next()
    expect(mail.mail.to).toMatchObject({ text: 'alerts@example.com' })
    expect(mail.mail.subject).toContain('test notification')

    await call(env.app, 'PUT', '/api/user/setting', { notify_type: 'webhook', webhook_url: `https://${HOOK_HOST}/down` }, as(cookie))
    receiver.answer(500)
    const failed = await call(env.app, 'POST', '/api/user/setting/test', undefined, as(cookie))
    expect(failed.status).toBe(502)
    expect(failed.body).toMatchObject({ success: false, data: { code: 'notify_failed' } })
    expect(receiver.received.filter((h) => h.path === '/down')).toHaveLength(1) // the test is not retried
  })

  test('tests are limited per user per hour (429 with a stable code)', async () => {
    const { cookie } = await userCookie()
    await call(env.app, 'PUT', '/api/user/setting', { notify_type: 'webhook', webhook_url: `https://${HOOK_HOST}/many` }, as(cookie))
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await call(env.app, 'POST', '/api/user/setting/test', undefined, as(cookie))).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })
})

describe('events', () => {
  test('user quota low: the request that crosses the threshold notifies once, by signed webhook, after settling', async () => {
    const { user, key } = await account(env, 1300)
    const cookie = await login(env.app, user.username)
    await call(env.app, 'PUT', '/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: 1000, webhook_url: `https://${HOOK_HOST}/quota`, webhook_secret: SECRET }, as(cookie))
    env.upstream.setBehavior({ text: 'ok', usage: { input: 100, output: 50 } })
    // gpt-4o: (100 + 50 × 4) × 1.25 = 375 a request: 1300 → 925 crosses 1000, 925 → 550 does not
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    const hook = await receiver.next()
    expect(hook.path).toBe('/quota')
    expect(verified(hook)).toBe(true)
    expect(hook.json).toMatchObject({ type: 'quota_exceed', values: [925, 1000] })
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    expect((await userRow(env, user.id)).quota).toBe(550)
    await env.app.deps.notifier.idle()
    expect(receiver.received.filter((h) => h.path === '/quota')).toHaveLength(1)
  })

  test('channel auto-disabled: every root hears, by e-mail through SMTP', async () => {
    const root = (await env.app.deps.repos.users.findByUsername('root'))!
    await env.app.deps.repos.users.update(root.id, { email: 'root@example.com' })
    const channelId = await env.addChannel({ type: 1, models: 'doomed-model', name: 'doomed', autoBan: 1 })
    const verdict = await env.app.deps.routing.recordResult(channelId, { ok: false, status: 401, message: 'invalid api key' })
    expect(verdict.disabled).toBe(true)
    const mail = await smtp.next()
    expect(mail.mail.to).toMatchObject({ text: 'root@example.com' })
    expect(mail.mail.subject).toContain('"doomed" was disabled')
    expect(mail.mail.text).toContain('invalid api key')
    expect(mail.mail.text).toContain('已被自动禁用')
  })

  test('channel balance low: a balance fetched below ChannelBalanceWarningThreshold notifies root once', async () => {
    await env.app.deps.options.set('ChannelBalanceWarningThreshold', 20)
    await call(env.app, 'PUT', '/api/user/setting', { notify_type: 'webhook', webhook_url: `https://${HOOK_HOST}/root`, webhook_secret: SECRET }, as(rootCookie))
    const created = await call(env.app, 'POST', '/api/channel/', { name: 'moon', type: 25, key: 'sk-m', base_url: vendor.url, models: 'm' }, as(rootCookie))
    const id = created.body.data.id
    expect((await call(env.app, 'GET', `/api/channel/update_balance/${id}`, undefined, as(rootCookie))).body).toMatchObject({ success: true, balance: 12.5 })
    const hook = await receiver.next()
    expect(hook.path).toBe('/root')
    expect(verified(hook)).toBe(true)
    expect(hook.json).toMatchObject({ type: 'channel_balance_low', values: [id, 'moon', 12.5, 20] })
    // still low at the next fetch: the same state, no second notification
    await call(env.app, 'GET', `/api/channel/update_balance/${id}`, undefined, as(rootCookie))
    await env.app.deps.notifier.idle()
    expect(receiver.received.filter((h) => h.path === '/root')).toHaveLength(1)
    await env.app.deps.options.set('ChannelBalanceWarningThreshold', 0)
  })
})
