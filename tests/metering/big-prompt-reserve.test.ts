import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { estimateQuota, findPrice } from '../../src/metering/prices'
import { decodeRequest } from '../../src/protocols/anthropic/decode-request'
import { cacheWritesIn } from '../../src/relay/meter/cache-marks'
import { countRequestTokens } from '../../src/relay/meter/tokenize'
import { agentBody } from '../helpers/agent-body'
import type { RelayEnv } from '../helpers/relay-env'
import { account, messages, settled, startMeteredEnv, userRow } from './env'

/**
 * Issue #18: a long prompt reserves a cheap bound (one token per byte) instead of tokenizing, but that bound
 * may exceed the balance when the real cost does not. A ~4 MB Claude Code turn to claude-sonnet-4-5 is
 * about 1.2 M tokens (≈ $3.5 + $0.48 for max_tokens 32000), while the byte bound says ≈ $13: a user with
 * $5 must be served, and a user who really cannot pay is refused with the exact estimate, not the bound.
 */
let env: RelayEnv
const body = agentBody(4 << 20)
const QUOTA_PER_USD = 500_000

/** What the request may cost by the tokenizer (the estimate the refusal must name): its cache_control writes the prompt at 1.25×. */
function exactEstimate(): number {
  const ir = decodeRequest(body).value
  const price = findPrice(env.app.deps.options, 'claude-sonnet-4-5', 'default')!
  return estimateQuota(price, countRequestTokens(ir), ir.maxOutputTokens!, QUOTA_PER_USD, cacheWritesIn(Buffer.from(JSON.stringify(body))))
}

beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('QuotaPerUnit', QUOTA_PER_USD)
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5', name: 'anthropic' })
})
afterAll(() => env.stop())

describe('a long prompt whose byte bound exceeds the balance', () => {
  test('the body is what the issue describes: ~4 MB, the bound above $5, the real estimate below', () => {
    const bytes = Buffer.byteLength(JSON.stringify(body))
    expect(bytes).toBeGreaterThan(4_000_000)
    const exact = exactEstimate()
    expect(exact).toBeLessThan(5 * QUOTA_PER_USD)
    expect(exact).toBeGreaterThan(3 * QUOTA_PER_USD)
  })

  test('a user with $5 is served (counted exactly before refusing)', async () => {
    const { user, key } = await account(env, 5 * QUOTA_PER_USD)
    const before = env.outcomes.length
    const res = await messages(env, key, { ...body, stream: false })
    const text = await res.text()
    expect(res.status, text).toBe(200)
    await settled(env, before + 1)
    expect((await userRow(env, user.id)).quota).toBeLessThan(5 * QUOTA_PER_USD)
  }, 60_000) // tokenizing 4 MB takes seconds of CPU, which four workers on two cores stretch past the 20 s default

  test('a user who cannot pay the exact estimate is refused, and the message names that estimate', async () => {
    const exact = exactEstimate()
    const { user, key } = await account(env, exact - 1000)
    const res = await messages(env, key, { ...body, stream: false })
    expect(res.status).toBe(403)
    const error = ((await res.json()) as any).error
    expect(error.message).toContain('insufficient quota')
    expect(error.message).toContain(`may cost up to ${exact} (`)
    expect((await userRow(env, user.id)).quota).toBe(exact - 1000)
  }, 60_000) // as above: the test and the gateway each tokenize the 4 MB body
})
