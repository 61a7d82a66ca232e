import type { OutboundWebSocket } from '../../outbound/websocket'
import type { Channel } from './channel'
import type { ChannelTestResult, Fetch } from './channel-test'
import type { KeyRotation } from './key-rotation'
import { applyKeyTests } from './key-verdicts'
import { summarizeKeyTests, testEachKey } from './key-tests'

export interface ChannelCheck {
  /** new-api's verdict: ok when every tested key works, the first key's time */
  result: ChannelTestResult
  /** at least one tested key works: enough for the probe to bring the channel back */
  anyKeyWorks: boolean
}

/**
 * The channel test behind `GET /api/channel/test/:id` and the probe: every key in turn, the verdicts fed to
 * the key rotation (dead keys out, working ones back in), one summary. Never throws.
 */
export function createChannelCheck(rotation: Pick<KeyRotation, 'isDead' | 'markDead' | 'revive'>, fetchImpl: Fetch, dial?: OutboundWebSocket) {
  return async function checkChannel(channel: Channel, requestedModel?: string): Promise<ChannelCheck> {
    const tests = await testEachKey(channel, requestedModel, fetchImpl, dial)
    applyKeyTests(channel, tests, rotation)
    return { result: summarizeKeyTests(tests, channel.keys.length), anyKeyWorks: tests.some((t) => t.result.ok) }
  }
}

export type CheckChannel = ReturnType<typeof createChannelCheck>
