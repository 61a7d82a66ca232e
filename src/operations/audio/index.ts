import type { Operation } from '../types'
import { openAiSpeech } from './speech-openai'
import { decodeSpeech, type SpeechRequest } from './speech-request'
import { openAiTranscription } from './transcription-openai'
import { decodeAudioUpload, type TranscriptionRequest } from './transcription-request'

export type { SpeechRequest } from './speech-request'
export type { TranscriptionRequest } from './transcription-request'

/** `POST /v1/audio/speech`: streamed audio, billed per character of input. */
export const speech: Operation<SpeechRequest> = {
  id: 'speech',
  path: '/v1/audio/speech',
  body: 'json',
  decode: decodeSpeech,
  dialects: { openai: openAiSpeech },
}

/** `POST /v1/audio/transcriptions` (multipart), billed per second of audio (whisper) or per token (gpt-4o-transcribe). */
export const transcriptions: Operation<TranscriptionRequest> = {
  id: 'transcriptions',
  path: '/v1/audio/transcriptions',
  body: 'multipart',
  decode: decodeAudioUpload('transcribe'),
  dialects: { openai: openAiTranscription },
}

/** `POST /v1/audio/translations` (multipart): audio to English text, billed like transcriptions. */
export const translations: Operation<TranscriptionRequest> = {
  id: 'translations',
  path: '/v1/audio/translations',
  body: 'multipart',
  decode: decodeAudioUpload('translate'),
  dialects: { openai: openAiTranscription },
}
