import { keyHint, maskSecrets } from '../mask'
import type { Channel } from './channel'
import { isFatalFailure } from './health'
import type { KeyRotation } from './key-rotation'
import { failureReason, type KeyTest } from './key-tests'

type RotationState = Pick<KeyRotation, 'isDead' | 'markDead' | 'revive'>

/**
 * What a channel test says about a pool's keys, applied to the relay's rotation: a key that failed with an
 * auth error (401/403, a dead-key message) leaves it, as a relay failure would when auto_ban is on; a key
 * that was out and now works rejoins it. A single key is the channel itself: its health is the channel's
 * status (health tracker, probe), so its rotation is left alone. Channel status is not changed here.
 */
export function applyKeyTests(channel: Channel, tests: readonly KeyTest[], rotation: RotationState): void {
  if (channel.keys.length < 2) return
  for (const test of tests) {
    if (test.result.ok) reviveKey(channel, test, rotation)
    else if (channel.autoBan && isFatalFailure(test.result.status, test.result.message)) retireKey(channel, test, rotation)
  }
}

function reviveKey(channel: Channel, test: KeyTest, rotation: RotationState): void {
  if (rotation.revive(channel.id, test.key)) console.log(`${keyLabel(channel, test)} works again: back in the rotation`)
}

function retireKey(channel: Channel, test: KeyTest, rotation: RotationState): void {
  if (rotation.isDead(channel.id, test.key)) return
  rotation.markDead(channel.id, channel.keys, test.key)
  console.warn(`${keyLabel(channel, test)} out of the rotation after a test: ${maskSecrets(failureReason(test.result))}`)
}

function keyLabel(channel: Channel, test: KeyTest): string {
  return `channel ${channel.id} (${channel.name}): key ${test.position} (${keyHint(test.key)})`
}
