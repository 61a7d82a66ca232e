import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { as, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { fakeUpstream, userHeaders } from '../channels/helpers'

let app: TestApp
const upstream = fakeUpstream((_req, url) =>
  url.pathname.endsWith('/chat/completions')
    ? Response.json({ id: 'c1', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })
    : new Response('no', { status: 404 }),
)
beforeAll(async () => (app = await startTestApp()))
afterAll(async () => {
  await app.stop()
  upstream.stop()
})

test('the checklist follows a new instance from nothing to a first answer, from the server\'s own state', async () => {
  await app.deps.options.set('SelfUseModeEnabled', false)
  const root = as(await login(app))
  const read = async () => (await call(app, 'GET', '/api/setup/checklist', undefined, root)).body.data
  expect(await read()).toEqual({ channels: 0, self_use: false, unpriced_count: 0, unpriced_models: [], tokens: 0, requests: 0 })

  await call(app, 'POST', '/api/channel/', { type: 1, name: 'c', key: 'sk-1', base_url: upstream.url, models: 'chat-a,chat-b' }, root)
  expect(await read()).toMatchObject({ channels: 1, unpriced_count: 2, unpriced_models: ['chat-a', 'chat-b'] })

  await call(app, 'PUT', '/api/option/', { key: 'ModelPrice', value: JSON.stringify({ 'chat-a': 0.01 }) }, root)
  expect(await read()).toMatchObject({ unpriced_count: 1, unpriced_models: ['chat-b'] })
  await app.deps.options.set('SelfUseModeEnabled', true)
  expect(await read()).toMatchObject({ self_use: true })

  const created = await call(app, 'POST', '/api/token/', { name: 'first', unlimited_quota: true }, root)
  expect(created.status).toBe(200)
  expect(await read()).toMatchObject({ tokens: 1, requests: 0 })

  const key = created.body.data.key
  const answer = await app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'chat-a', messages: [{ role: 'user', content: 'hi' }] }) })
  expect(answer.status, await answer.clone().text()).toBe(200)
  await answer.text()
  await app.deps.metering.settledAll()
  expect((await read()).requests).toBe(1)
})

test('only admins read the checklist', async () => {
  const user = await userHeaders(app, Role.user)
  expect((await call(app, 'GET', '/api/setup/checklist', undefined, user)).status).toBe(403)
  expect((await call(app, 'GET', '/api/setup/checklist')).status).toBe(401)
})
