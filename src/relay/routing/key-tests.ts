import type { OutboundWebSocket } from '../../outbound/websocket'
import { keyHint, maskSecrets } from '../mask'
import type { Channel } from './channel'
import { testKey, type ChannelTestResult, type Fetch } from './channel-test'

/** Keys tested per run; a pool with more says so in the message. */
const MAX_TESTED_KEYS = 32
/** Keys tested at once: each test may wait up to its 30 s timeout, and 32 in a row could hold an admin request for 16 min. */
const KEYS_AT_ONCE = 8

/** One key's test. `key` stays in memory: reports show `position` and a hint. */
export interface KeyTest {
  /** 1-based, as the operator sees the key lines */
  position: number
  key: string
  result: ChannelTestResult
}

/** Test the channel's keys, at most MAX_TESTED_KEYS, KEYS_AT_ONCE at a time, reported in key order; a keyless channel is tested once without one. */
export async function testEachKey(channel: Channel, requestedModel: string | undefined, fetchImpl: Fetch, dial?: OutboundWebSocket): Promise<KeyTest[]> {
  const keys = channel.keys.length > 0 ? channel.keys.slice(0, MAX_TESTED_KEYS) : ['']
  const tests: KeyTest[] = []
  let next = 0
  const worker = async () => {
    for (let i = next++; i < keys.length; i = next++) {
      tests[i] = { position: i + 1, key: keys[i]!, result: await testKey(channel, keys[i]!, requestedModel, fetchImpl, dial) }
    }
  }
  await Promise.all(Array.from({ length: Math.min(KEYS_AT_ONCE, keys.length) }, worker))
  return tests
}

/**
 * The channel's verdict in new-api's shape: ok only when every tested key works; the time is the first
 * key's; the status is the first failing key's (else the first key's). A single key reports exactly its
 * own result; with several, the message names each failing key by position and hint, never the key.
 */
export function summarizeKeyTests(tests: readonly KeyTest[], keyCount: number): ChannelTestResult {
  const first = tests[0]!.result
  if (keyCount <= 1) return first
  const failed = tests.filter((t) => !t.result.ok)
  const notes = failed.map(describeFailure)
  if (keyCount > tests.length) notes.push(`only the first ${tests.length} of ${keyCount} keys were tested`)
  const message = failed.length > 0 ? `${failed.length} of ${tests.length} keys failed: ${notes.join('; ')}` : notes.join('; ')
  const { code: _, request: __, ...shared } = first
  const blame = failed[0]?.result ?? first // the failure the row shows: the first failed key's
  return { ...shared, ok: failed.length === 0, status: blame.status, message: maskSecrets(message), ...(blame.code ? { code: blame.code } : {}), ...(blame.request ? { request: blame.request } : {}) }
}

/** `key 2 (…abcd): upstream 401: Incorrect API key provided` */
function describeFailure({ position, key, result }: KeyTest): string {
  return `key ${position} (${keyHint(key)}): ${failureReason(result)}`
}

/** `upstream 401: Incorrect API key provided`, or the network error when there was no answer. */
export function failureReason(result: ChannelTestResult): string {
  return result.status ? `upstream ${result.status}: ${result.message}` : result.message
}
