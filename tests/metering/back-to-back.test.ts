import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { appDialects } from '../helpers/test-app'
import { account, chat, chatBody, startMeteredEnv, userRow } from './env'

/**
 * An agent's requests one after another on a balance that holds one reservation but not two: each is served,
 * because the previous one's refund is in the balance before the next is decided. On PostgreSQL that refund waits
 * for the next log batch, so a refusal first commits the waiting settlements and asks again.
 */
for (const dialect of appDialects()) describe.skipIf(dialect.skip)(dialect.name, () => {
  let env: RelayEnv
  beforeAll(async () => {
    env = await startMeteredEnv(await dialect.env())
    await env.addChannel({ type: 1, models: 'gpt-4o' })
  }, 60_000)
  afterAll(() => env.stop())

  test('back-to-back requests on a balance for one reservation are all served, and the balance falls by their cost', async () => {
    // gpt-4o at 1.25 / ×4: a reservation of (prompt + 1,000) × 5 × 1.25 ≈ 6,300, a request costs (10 + 10 × 4) × 1.25 = 63
    const { user, key } = await account(env, 10_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await chat(env, key, chatBody('gpt-4o', { max_tokens: 1_000 }))).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    expect((await userRow(env, user.id)).quota).toBe(10_000 - 5 * 63)
  })
})
