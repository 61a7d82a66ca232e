import type { Meter } from '../../relay/meter/meter'

/**
 * What an upload of audio may cost before the upstream says how long it was. The bound assumes the lowest
 * bitrate speech is stored at (6 kbit/s Opus: 750 bytes a second), so no real file lasts longer; `count()`
 * (used when the bound does not fit the balance, or the upstream reports nothing) assumes a common 128 kbit/s.
 */
const MIN_BYTES_PER_SECOND = 750
const TYPICAL_BYTES_PER_SECOND = 16_000
/** gpt-4o-transcribe bills about 1,000 audio tokens a minute ($0.006 a minute at $6 per million) */
const AUDIO_TOKENS_PER_SECOND = 17
/** speech is 2-3 words a second; 5 tokens a second leaves room for any language */
const TEXT_TOKENS_PER_SECOND = 5

function boundSeconds(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / MIN_BYTES_PER_SECOND))
}

function typicalSeconds(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / TYPICAL_BYTES_PER_SECOND))
}

/** whisper-1 and its kin: billed per second of audio. */
export function secondsMeter(model: string, fileBytes: number): Meter {
  const typical = typicalSeconds(fileBytes)
  return { model, stream: false, unit: 'second', input: boundSeconds(fileBytes), exact: false, maxOutput: 0, count: () => typical }
}

/** gpt-4o-transcribe and its kin: billed per token, audio tokens in and text tokens out. */
export function transcribeTokensMeter(model: string, fileBytes: number, promptBytes: number): Meter {
  const typical = typicalSeconds(fileBytes) * AUDIO_TOKENS_PER_SECOND + promptBytes
  return {
    model,
    stream: false,
    unit: 'token',
    input: boundSeconds(fileBytes) * AUDIO_TOKENS_PER_SECOND + promptBytes,
    exact: false,
    maxOutput: typicalSeconds(fileBytes) * TEXT_TOKENS_PER_SECOND + 100,
    count: () => typical,
  }
}
