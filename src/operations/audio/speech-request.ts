import { BadRequestError } from '../../errors'
import { exactMeter } from '../../relay/meter/meter'
import { objectBody, optionalString, requiredString } from '../fields'
import type { OperationRequest } from '../types'

export interface SpeechRequest extends OperationRequest {
  /** the client's JSON body, sent on with only `model` replaced */
  body: Record<string, unknown>
  /** characters of `input` (what speech is billed by) */
  characters: number
}

/** OpenAI refuses a longer `input`. */
const MAX_INPUT = 4096

/** `POST /v1/audio/speech`: the audio streams back as it arrives; billed per character of `input`, known exactly up front. */
export function decodeSpeech(raw: unknown): SpeechRequest {
  const body = objectBody(raw)
  const model = requiredString(body, 'model')
  const input = requiredString(body, 'input')
  const characters = [...input].length
  if (characters > MAX_INPUT) throw new BadRequestError(`input holds ${characters} characters; at most ${MAX_INPUT} are allowed`, 'input')
  checkVoice(body.voice)
  optionalString(body, 'response_format', ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const)
  optionalString(body, 'instructions')
  const streamFormat = optionalString(body, 'stream_format', ['sse', 'audio'] as const)
  // OpenAI streams speech as SSE events only from gpt-4o-mini-tts on
  if (streamFormat === 'sse' && /^tts-1/.test(model)) throw new BadRequestError(`stream_format "sse" is not supported by ${model}; use "audio"`, 'stream_format')
  const speed = body.speed
  if (speed !== undefined && speed !== null && (typeof speed !== 'number' || !(speed >= 0.25 && speed <= 4))) throw new BadRequestError('speed must be a number from 0.25 to 4.0', 'speed')
  return { model, stream: true, meter: exactMeter(model, 'character', characters, { stream: true }), body, characters }
}

/** A voice name (`alloy`, a vendor's own), or a custom voice as `{id}`. */
function checkVoice(voice: unknown): void {
  if (typeof voice === 'string' && voice.trim()) return
  if (typeof voice === 'object' && voice !== null && typeof (voice as { id?: unknown }).id === 'string') return
  throw new BadRequestError('voice is required: a voice name such as "alloy", or {"id": "voice_…"}', 'voice')
}
