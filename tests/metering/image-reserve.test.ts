import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { LogRow } from '../../src/db/repos'
import { dataUrl, jpegOf, pngOf } from '../helpers/image-headers'
import type { RelayEnv } from '../helpers/relay-env'
import { account, logsOf, messages, settled, startMeteredEnv, userRow } from './env'

/**
 * Inline images used to be reserved at a flat 1,600 tokens, while gpt-4o-mini bills a 2048×4096 image at 36,835
 * and Claude 4.7 a large one at 4,784: a flood of them settled far beyond the hold, as `unpaid` once the balance
 * ran out (issue #28). An image is now reserved at its model family's price for the size its header states (or the
 * family's worst case), so a small balance is refused before dispatch, never left `unpaid`.
 */
let env: RelayEnv
const MODELS = ['gpt-4o-mini', 'claude-opus-4-7', 'gemini-2.5-flash']
/** what the vendors bill one image of the sizes below (their documented formulas) */
const BILLED = { 'gpt-4o-mini': 2833 + 6 * 5667, 'claude-opus-4-7': 4784, 'gemini-2.5-flash': 12 * 258 } as Record<string, number>
const PNG_MARK = pngOf(1, 1).toString('base64').slice(0, 16)
/** what the fake vendor bills per image now */
let billed = BILLED

beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ModelRatio', Object.fromEntries(MODELS.map((m) => [m, 1])))
  await env.app.deps.options.set('CompletionRatio', Object.fromEntries(MODELS.map((m) => [m, 1])))
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.addChannel({ type: 1, models: 'gpt-4o-mini' })
  await env.addChannel({ type: 14, models: 'claude-opus-4-7' })
  await env.addChannel({ type: 24, models: 'gemini-2.5-flash' })
})
afterAll(() => env.stop())
beforeEach(() => {
  billed = BILLED
  env.upstream.reset()
  env.outcomes.length = 0
  // the vendor bills each image it received at its own count (the PNG and JPEG data are found in any protocol's body)
  env.upstream.setBehavior((req) => {
    const images = req.body.split(PNG_MARK).length - 1 + (req.body.split('/9j/').length - 1)
    return { text: 'ok', usage: { input: 10 + images * billed[req.model!.replace(/^models\//, '')]!, output: 20 } }
  })
})

/** A chat request with `count` inline images of `image` (large bodies take the spliced path). */
function chatWithImages(model: string, image: Buffer, count: number) {
  const content = [...Array.from({ length: count }, () => ({ type: 'image_url', image_url: { url: dataUrl(image, image[0] === 0xff ? 'image/jpeg' : 'image/png') } })), { type: 'text', text: 'compare them' }]
  return { model, max_tokens: 100, messages: [{ role: 'user', content }] }
}

async function flood(key: string, body: unknown, times: number): Promise<number[]> {
  const send = () => env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return Promise.all(Array.from({ length: times }, async () => (await send()).status))
}

async function noUnpaid(userId: number, balance: number, statuses: number[]): Promise<LogRow[]> {
  const served = statuses.filter((s) => s === 200).length
  await settled(env, served)
  const rows = (await logsOf(env, userId)).filter((r) => r.type === 2)
  expect(rows).toHaveLength(served)
  for (const row of rows) {
    const other = JSON.parse(row.other)
    expect(other.unpaid).toBeUndefined()
    expect(row.quota).toBeLessThanOrEqual(other.reserved)
  }
  const spent = rows.reduce((sum, r) => sum + r.quota, 0)
  expect((await userRow(env, userId)).quota).toBe(balance - spent)
  expect(spent).toBeLessThanOrEqual(balance)
  return rows
}

describe('a flood of large inline images under a small balance never leaves an unpaid row', () => {
  const cases = [
    { model: 'gpt-4o-mini', image: pngOf(2048, 4096, 48_000), note: 'chat passthrough, PNG' },
    { model: 'claude-opus-4-7', image: jpegOf(2576, 1449, 48_000), note: 'converted to Anthropic, the spliced body, JPEG after a 48 KB EXIF' },
    { model: 'gemini-2.5-flash', image: pngOf(3000, 2300, 48_000), note: 'converted to Gemini' },
  ]
  for (const { model, image, note } of cases) {
    test(`${model} (${note})`, async () => {
      const perRequest = 8 * BILLED[model]! + 10 + 100
      const balance = Math.floor(perRequest * 2.5) // two requests' worth
      const { user, key } = await account(env, balance)
      const statuses = await flood(key, chatWithImages(model, image, 8), 12)
      expect(statuses.every((s) => s === 200 || s === 403)).toBe(true)
      const rows = await noUnpaid(user.id, balance, statuses)
      expect(rows.length).toBeGreaterThanOrEqual(1)
      expect(rows.length).toBeLessThanOrEqual(2)
      expect(rows[0]!.promptTokens).toBe(10 + 8 * BILLED[model]!)
    })
  }

  test('Anthropic messages in, images by base64 source: reserved at the size, the refusal before dispatch', async () => {
    const { user, key } = await account(env, 30_000)
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: jpegOf(2576, 1449, 48_000).toString('base64') } }
    const res = await messages(env, key, { model: 'claude-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content: [image, image, image, image, image, image, image, { type: 'text', text: 'hi' }] }] })
    expect(res.status).toBe(403)
    expect(env.upstream.requests).toHaveLength(0)
    expect((await userRow(env, user.id)).quota).toBe(30_000)
  })

  test('small images reserve little, read from the spliced body too: a balance that pays for them is served', async () => {
    billed = { 'claude-opus-4-7': Math.ceil((200 * 200) / 750) }
    const { user, key } = await account(env, 5_000) // the worst case, 8 × 4,784, would be refused
    const statuses = await flood(key, chatWithImages('claude-opus-4-7', jpegOf(200, 200, 48_000), 8), 1)
    expect(statuses).toEqual([200])
    await noUnpaid(user.id, 5_000, statuses)
  })
})
