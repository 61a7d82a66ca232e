import type { AudioTask, TranscriptFormat } from './transcription-request'

/** The parts of a `verbose_json` answer the other formats are made of. */
export interface Transcript {
  text: string
  duration?: number
  segments?: { start: number; end: number; text: string }[]
}

const PLAIN = 'text/plain; charset=utf-8'

/**
 * A whisper transcript in the format the client asked for, made from the upstream's `verbose_json` as OpenAI
 * makes them: `json` is `{text}` (with `usage` in seconds for transcriptions, as OpenAI adds), `text` the text
 * and a newline, `srt` and `vtt` one cue per segment.
 */
export function renderTranscript(format: TranscriptFormat, task: AudioTask, transcript: Transcript, raw: string, seconds: number | undefined): { body: string; contentType: string } {
  switch (format) {
    case 'verbose_json':
    case 'diarized_json':
      return { body: raw, contentType: 'application/json' }
    case 'json': {
      const usage = task === 'transcribe' && seconds !== undefined ? { usage: { type: 'duration', seconds } } : {}
      return { body: JSON.stringify({ text: transcript.text, ...usage }), contentType: 'application/json' }
    }
    case 'text':
      return { body: `${transcript.text}\n`, contentType: PLAIN }
    case 'srt':
      return { body: cuesOf(transcript).map((c, i) => `${i + 1}\n${stamp(c.start, ',')} --> ${stamp(c.end, ',')}\n${c.text}\n\n`).join(''), contentType: PLAIN }
    case 'vtt':
      return { body: `WEBVTT\n\n${cuesOf(transcript).map((c) => `${stamp(c.start, '.')} --> ${stamp(c.end, '.')}\n${c.text}\n\n`).join('')}`, contentType: PLAIN }
  }
}

/** The segments as cues; a transcript without segments is one cue over the whole audio. */
function cuesOf(transcript: Transcript): { start: number; end: number; text: string }[] {
  const segments = transcript.segments?.filter((s) => typeof s.start === 'number' && typeof s.end === 'number' && typeof s.text === 'string')
  if (segments && segments.length > 0) return segments.map((s) => ({ start: s.start, end: s.end, text: s.text.trim() }))
  return transcript.text.trim() ? [{ start: 0, end: transcript.duration ?? 0, text: transcript.text.trim() }] : []
}

/** `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (WebVTT). */
function stamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000))
  const pad = (n: number, width = 2) => String(n).padStart(width, '0')
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`
}
