/**
 * Audio tokens (realtime) are billed at their own prices: new-api's AudioRatio (audio input over text input) and
 * AudioCompletionRatio (audio output over audio input) beside the model and completion ratios; cached input at the
 * cache price whatever its modality; a model neither table names bills audio as text.
 */
import { expect, test } from 'bun:test'
import { createOptionRepo } from '../../src/db/sqlite/repos/options'
import { openDatabase } from '../../src/db/sqlite/client'
import { migrate } from '../../src/db/sqlite/migrate'
import { createOptionStore } from '../../src/options/store'
import { findPrice, quotaFor } from '../../src/metering/prices'

function options() {
  const db = openDatabase(':memory:')
  migrate(db)
  return createOptionStore(createOptionRepo(db), {})
}
const QUOTA_PER_UNIT = 500_000

test('gpt-realtime ships at $4/$16 text, $32/$64 audio, $0.40 cached: AudioRatio 8, AudioCompletionRatio 2', () => {
  const price = findPrice(options(), 'gpt-realtime', 'default')!
  expect(price).toMatchObject({ mode: 'ratio', ratio: 2, completion: 4, cacheRead: 0.1, audio: 8, audioCompletion: 2 })
  // 1M of each: text in $4 + cached $0.40 + audio in $32 + text out $16 + audio out $64, at 500,000 quota per US$
  const usage = { input: { noCache: 2_000_000, cacheRead: 1_000_000, cacheWrite: 0 }, output: { text: 2_000_000, reasoning: 0 }, audio: { input: 1_000_000, output: 1_000_000 } }
  expect(quotaFor(price, usage, QUOTA_PER_UNIT)).toBe((4 + 0.4 + 32 + 16 + 64) * QUOTA_PER_UNIT)
})

test('the options override the shipped ratios model by model; a model they do not name bills audio as text', async () => {
  const store = options()
  await store.set('ModelRatio', { 'my-voice': 1 })
  await store.set('CompletionRatio', { 'my-voice': 3 })
  await store.set('AudioRatio', { 'my-voice': 10, 'gpt-realtime': 4 })
  await store.set('AudioCompletionRatio', { 'my-voice': 2 })
  const voice = findPrice(store, 'my-voice', 'default')!
  expect(voice).toMatchObject({ audio: 10, audioCompletion: 2 })
  const usage = { input: { noCache: 100, cacheRead: 0, cacheWrite: 0 }, output: { text: 50, reasoning: 0 }, audio: { input: 60, output: 20 } }
  // 40 text in + 60 audio × 10 + 30 text out × 3 + 20 audio out × 10 × 2 = 40 + 600 + 90 + 400
  expect(quotaFor(voice, usage, QUOTA_PER_UNIT)).toBe(1130)
  expect(findPrice(store, 'gpt-realtime', 'default')).toMatchObject({ audio: 4, audioCompletion: 2 })
  await store.set('ModelRatio', { 'my-voice': 1, 'plain': 1 })
  const plain = findPrice(store, 'plain', 'default')!
  expect(plain).not.toHaveProperty('audio')
  expect(quotaFor(plain, usage, QUOTA_PER_UNIT)).toBe(150)
})
