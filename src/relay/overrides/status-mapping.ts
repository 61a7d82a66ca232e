import { OverrideError } from './param-override'

/**
 * new-api's `status_code_mapping`: an upstream error status read as another, e.g. `{"400": "500"}` so a channel
 * that answers 400 for its own trouble fails over instead of ending the request. Only error statuses (400–599) map.
 */
export type StatusMapping = ReadonlyMap<number, number>

const statusOf = (text: unknown): number | undefined => {
  const n = typeof text === 'number' ? text : typeof text === 'string' && /^\d{3}$/.test(text.trim()) ? Number(text) : NaN
  return Number.isInteger(n) && n >= 400 && n <= 599 ? n : undefined
}

export function parseStatusMapping(value: unknown): StatusMapping | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) throw new OverrideError('must be a JSON object like {"400": "500"}')
  const map = new Map<number, number>()
  for (const [from, to] of Object.entries(value as Record<string, unknown>)) {
    const a = statusOf(from)
    const b = statusOf(to)
    if (a === undefined || b === undefined) throw new OverrideError(`"${from.slice(0, 20)}" → ${JSON.stringify(to)?.slice(0, 20)}: both must be HTTP error statuses (400–599)`)
    map.set(a, b)
  }
  return map.size ? map : undefined
}
