import { BadRequestError } from '../../errors'
import { formBoolean, formFile, formNumber, formString, requiredFormString } from '../form-fields'
import type { OperationRequest } from '../types'
import { secondsMeter, transcribeTokensMeter } from './audio-meter'

export type TranscriptFormat = 'json' | 'text' | 'srt' | 'verbose_json' | 'vtt' | 'diarized_json'
export type AudioTask = 'transcribe' | 'translate'

export interface TranscriptionRequest extends OperationRequest {
  task: AudioTask
  /** the client's form: the file goes upstream as it came */
  form: FormData
  /** what the client asked for and gets */
  format: TranscriptFormat
  /** per second of audio (whisper) or per token (gpt-4o-transcribe and kin) */
  billing: 'seconds' | 'tokens'
  /**
   * what the upstream is asked for: the answer that carries what metering needs (whisper: `verbose_json` with
   * its duration; the token models: `json` with their usage), rendered into `format` on the way back
   */
  upstreamFormat: TranscriptFormat
}

const FORMATS: readonly TranscriptFormat[] = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json']
const GRANULARITIES = ['timestamp_granularities[]', 'timestamp_granularities']

/** OpenAI's models billed per token have `transcribe` in their name (gpt-4o-transcribe, gpt-4o-mini-transcribe …). */
function billedByTokens(model: string): boolean {
  return /transcribe/i.test(model)
}

/** `POST /v1/audio/transcriptions` and `/v1/audio/translations` (multipart: `file`, `model`, `response_format` …). */
export function decodeAudioUpload(task: AudioTask) {
  return (raw: unknown): TranscriptionRequest => {
    if (!(raw instanceof FormData)) throw new BadRequestError('this route takes multipart/form-data (the audio file with its fields)')
    const form = raw
    const model = requiredFormString(form, 'model')
    const file = formFile(form, 'file')
    if (!file || file.size === 0) throw new BadRequestError('file is required: the audio to transcribe (flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav or webm)', 'file')
    const format = formString(form, 'response_format', FORMATS) ?? 'json'
    formNumber(form, 'temperature', 0, 1)
    const prompt = formString(form, 'prompt') ?? ''
    if (task === 'transcribe') formString(form, 'language')
    checkGranularities(form, format)
    const billing = billedByTokens(model) ? 'tokens' : 'seconds'
    if (billing === 'tokens') {
      const allowed: TranscriptFormat[] = /diarize/i.test(model) ? ['json', 'text', 'diarized_json'] : ['json', 'text']
      if (!allowed.includes(format)) throw new BadRequestError(`response_format "${format}" is not supported by ${model}; use ${allowed.join(' or ')}`, 'response_format')
    } else if (format === 'diarized_json') {
      throw new BadRequestError(`response_format "diarized_json" is only for diarizing models, not ${model}`, 'response_format')
    }
    // whisper ignores `stream` (OpenAI answers it whole); the token models stream their transcript as SSE events
    const stream = billing === 'tokens' && (formBoolean(form, 'stream') ?? false)
    const meter = billing === 'tokens' ? transcribeTokensMeter(model, file.size, Buffer.byteLength(prompt)) : secondsMeter(model, file.size)
    if (stream) meter.stream = true
    const upstreamFormat = billing === 'seconds' ? 'verbose_json' : format === 'text' ? 'json' : format
    return { model, stream, meter, task, form, format, billing, upstreamFormat }
  }
}

/** `timestamp_granularities[]`: word and/or segment, and only with verbose_json (as OpenAI requires). */
function checkGranularities(form: FormData, format: TranscriptFormat): void {
  for (const name of GRANULARITIES) {
    for (const value of form.getAll(name)) {
      if (value !== 'word' && value !== 'segment') throw new BadRequestError(`${name} takes "word" and/or "segment"`, name)
      if (format !== 'verbose_json') throw new BadRequestError(`${name} needs response_format "verbose_json"`, name)
    }
  }
}
