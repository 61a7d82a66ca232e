/**
 * Relay authorization reads the key's owner as they are now (issue #28, "credentials follow the account"): a key
 * named for a group its owner was moved out of stops at once, in the relay's error shape and before anything is
 * charged; a key in "the owner's group" ('') follows them and is priced at their new group; a disabled owner's keys
 * stop at once.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { UserRow } from '../../../src/db/repos'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, as, login } from '../../helpers/accounts'
import type { RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'
import { chat, chatBody, messages, startMeteredEnv, userRow } from '../../metering/env'

let env: RelayEnv
let admin: Record<string, string>
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.addChannel({ type: 1, name: 'vip-only', models: 'vip-model', group: 'vip' })
  await env.addChannel({ type: 1, name: 'shared', models: 'gpt-4o', group: 'default,vip' })
  await env.addChannel({ type: 14, name: 'shared-anthropic', models: 'claude-sonnet-4-5', group: 'default,vip' })
  const o = env.app.deps.options
  await o.set('ModelRatio', { 'vip-model': 2 })
  await o.set('GroupRatio', { default: 1, vip: 3 })
  await addUser(env.app, { username: 'mover', role: Role.admin })
  admin = as(await login(env.app, 'mover'))
})
afterAll(() => env.stop())

// 100 prompt + 50 completion tokens, before the group ratio: gpt-4o (ratio 1.25, completion ×4) (100 + 200) × 1.25;
// vip-model (ratio 2, completion ×1) (100 + 50) × 2
const BASE_COST = 375
const VIP_MODEL_COST = 300
let seq = 0

async function vipAccount(): Promise<{ user: UserRow; vipKey: string; followKey: string }> {
  const user = await addUser(env.app, { username: `vipper${++seq}`, group: 'vip', quota: 1_000_000 })
  return { user, vipKey: await env.newKey({ group: 'vip' }, user), followKey: await env.newKey({ group: '' }, user) }
}

const moveTo = async (user: UserRow, group: string) => expect((await call(env.app, 'PUT', '/api/user/', { id: user.id, group }, admin)).status).toBe(200)

async function charged(user: UserRow, before: number): Promise<number> {
  return before - (await userRow(env, user.id)).quota
}

test('a vip key reaches the vip model at vip prices; once its owner is moved to default, the next request is refused and costs nothing', async () => {
  const { user, vipKey } = await vipAccount()
  env.upstream.setBehavior({ text: 'ok', usage: { input: 100, output: 50 } })
  expect((await chat(env, vipKey, chatBody('vip-model'))).status).toBe(200)
  expect(await charged(user, 1_000_000)).toBe(3 * VIP_MODEL_COST)

  await moveTo(user, 'default')
  const reached = env.upstream.requests.length
  for (const model of ['vip-model', 'gpt-4o']) {
    const res = await chat(env, vipKey, chatBody(model))
    expect(res.status).toBe(403)
    const body = (await res.json()) as { error: { code: string; message: string; type: string } }
    expect(body.error.code).toBe('group_not_allowed')
    expect(body.error.message).toContain('"vip"')
    expect(body.error.message).toContain('"default"')
  }
  // the Anthropic route answers in its own shape
  const anthropic = await messages(env, vipKey, { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
  expect(anthropic.status).toBe(403)
  expect(((await anthropic.json()) as { type: string; error: { message: string } })).toMatchObject({ type: 'error', error: { message: expect.stringContaining('group') } })
  // the model list too
  expect((await env.app.fetch('/v1/models', { headers: { authorization: `Bearer ${vipKey}` } })).status).toBe(403)
  expect(env.upstream.requests.length).toBe(reached)
  expect(await charged(user, 1_000_000)).toBe(3 * VIP_MODEL_COST)

  // moved back, the key works again: nothing about it was rewritten
  await moveTo(user, 'vip')
  expect((await chat(env, vipKey, chatBody('vip-model'))).status).toBe(200)
})

test("a key in the owner's group follows the owner: default routing and default prices after the move", async () => {
  const { user, followKey } = await vipAccount()
  env.upstream.setBehavior({ text: 'ok', usage: { input: 100, output: 50 } })
  expect((await chat(env, followKey, chatBody('gpt-4o'))).status).toBe(200)
  expect(await charged(user, 1_000_000)).toBe(3 * BASE_COST)

  await moveTo(user, 'default')
  const refused = await chat(env, followKey, chatBody('vip-model'))
  expect(refused.status).toBeGreaterThanOrEqual(400)
  expect(refused.status).toBeLessThan(500)
  expect(await charged(user, 1_000_000)).toBe(3 * BASE_COST)
  expect((await chat(env, followKey, chatBody('gpt-4o'))).status).toBe(200)
  expect(await charged(user, 1_000_000)).toBe(3 * BASE_COST + BASE_COST)
})

test("an admin's key in another group stops when the admin is demoted", async () => {
  const owner = await addUser(env.app, { username: 'demotee', role: Role.admin, quota: 1_000_000 })
  const key = await env.newKey({ group: 'vip' }, owner)
  env.upstream.setBehavior({ text: 'ok', usage: { input: 100, output: 50 } })
  expect((await chat(env, key, chatBody('vip-model'))).status).toBe(200)
  const root = as(await login(env.app))
  expect((await call(env.app, 'POST', '/api/user/manage', { id: owner.id, action: 'demote' }, root)).status).toBe(200)
  const res = await chat(env, key, chatBody('vip-model'))
  expect(res.status).toBe(403)
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('group_not_allowed')
})

test("disabling the owner stops every key of theirs at once, in the relay's shape", async () => {
  const { user, vipKey, followKey } = await vipAccount()
  expect((await chat(env, followKey, chatBody('gpt-4o'))).status).toBe(200)
  expect((await call(env.app, 'POST', '/api/user/manage', { id: user.id, action: 'disable' }, admin)).status).toBe(200)
  for (const key of [vipKey, followKey]) {
    const res = await chat(env, key, chatBody('gpt-4o'))
    expect(res.status).toBe(401)
    const body = (await res.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('invalid_api_key')
    expect(body.error.message).toContain('disabled')
  }
})
