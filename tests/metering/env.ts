import type { Env } from '../../src/config'
import type { LogRow, UserRow } from '../../src/db/repos'
import { addUser } from '../helpers/accounts'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

/** A relay env with prices enforced (test-app serves unpriced models free by default); `appEnv` as startRelayEnv takes it (DATABASE_URL…). */
export async function startMeteredEnv(appEnv: Env = {}): Promise<RelayEnv> {
  const env = await startRelayEnv(appEnv)
  await env.app.deps.options.set('SelfUseModeEnabled', false)
  return env
}

let users = 0
/** A fresh user with `quota` and one API key (unlimited unless `remain` is given). */
export async function account(env: RelayEnv, quota: number, remain?: number): Promise<{ user: UserRow; key: string }> {
  const user = await addUser(env.app, { username: `payer${++users}`, quota })
  const key = await env.newKey(remain === undefined ? { unlimited_quota: true } : { unlimited_quota: false, remain_quota: remain }, user)
  return { user, key }
}

/** The user as stored now (not from the cache). */
export async function userRow(env: RelayEnv, id: number): Promise<UserRow> {
  // the balance as the settlements left it, on either dialect (PostgreSQL writes them with the next log batch)
  await env.app.deps.metering.settledAll()
  await env.app.deps.metering.logs.flush()
  env.app.deps.repos.users.forget(id)
  return (await env.app.deps.repos.users.findById(id))!
}

/** Every log row of a user, oldest first, after writing whatever is queued. */
export async function logsOf(env: RelayEnv, userId: number): Promise<LogRow[]> {
  // on PostgreSQL a settlement is still awaiting its round trip when the client has the answer
  await env.app.deps.metering.settledAll()
  await env.app.deps.metering.logs.flush()
  return (await env.app.deps.repos.logs.list({ userId }, 0, 100_000)).items.reverse()
}

/** Every log row of a user once there are `count` (refusals are logged just after their response is sent). */
export async function logsWhen(env: RelayEnv, userId: number, count: number, timeoutMs = 5000): Promise<LogRow[]> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const rows = await logsOf(env, userId)
    if (rows.length >= count || Date.now() > until) return rows
    await Bun.sleep(5)
  }
}

export const chatBody = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hello there' }],
  ...extra,
})

export function chat(env: RelayEnv, key: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return env.app.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  })
}

export function messages(env: RelayEnv, key: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return env.app.fetch('/v1/messages', {
    method: 'POST',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  })
}

/** Resolves once `count` outcomes were settled (streams settle after the response is read). */
export async function settled(env: RelayEnv, count: number, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (env.outcomes.length < count) {
    if (Date.now() > until) throw new Error(`only ${env.outcomes.length}/${count} requests settled`)
    await Bun.sleep(5)
  }
}
