/** How a log row reads in the table and its detail view: durations, excerpts, the retry path. */

/** "850 ms", "1.25 s", "2 min 5 s" in the locale. */
export function formatDuration(ms: number, locale: string): string {
  const unit = (value: number, name: 'millisecond' | 'second' | 'minute', digits = 0) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits: digits }).format(value)
  if (ms < 1000) return unit(Math.round(ms), 'millisecond')
  if (ms < 60_000) return unit(ms / 1000, 'second', ms < 10_000 ? 2 : 1)
  const minutes = Math.floor(ms / 60_000)
  const seconds = Math.round((ms % 60_000) / 1000)
  return seconds ? `${unit(minutes, 'minute')} ${unit(seconds, 'second')}` : unit(minutes, 'minute')
}

/** The first `max` characters of a message on one line, with an ellipsis when cut. */
export function excerpt(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line
}

export interface Attempt {
  channelId: number
  status: number
  error?: string
}

/** The channels a request tried, in order (admins' rows carry them in `other.attempts`). */
export function attemptsOf(other: unknown): Attempt[] {
  if (!other || typeof other !== 'object') return []
  const list = (other as { attempts?: unknown }).attempts
  if (!Array.isArray(list)) return []
  return list.flatMap((item): Attempt[] => {
    if (!item || typeof item !== 'object') return []
    const { channelId, status, error } = item as Record<string, unknown>
    if (typeof channelId !== 'number' || typeof status !== 'number') return []
    return [{ channelId, status, ...(typeof error === 'string' && error ? { error } : {}) }]
  })
}

/** `other` as indented JSON, or '' when it holds nothing. */
export function otherJson(other: unknown): string {
  if (!other || typeof other !== 'object' || Object.keys(other).length === 0) return ''
  return JSON.stringify(other, null, 2)
}

/** A table's time: "Nov 23, 14:07:43"; the year only when it is not the current one (`now`, unix seconds). */
export function formatLogTime(seconds: number, locale: string, now = Date.now() / 1000): string {
  const date = new Date(seconds * 1000)
  const sameYear = date.getFullYear() === new Date(now * 1000).getFullYear()
  return new Intl.DateTimeFormat(locale, {
    ...(sameYear ? {} : { year: 'numeric' }),
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23', // no AM/PM: the log's columns need the width
  }).format(date)
}
