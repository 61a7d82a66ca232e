import type { OptionDefinition } from './option-definition'

/** model → non-negative multiple (new-api's AudioRatio / AudioCompletionRatio tables). */
const ratioTable = (value: unknown): string | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of model → number'
  for (const [name, n] of Object.entries(value as Record<string, unknown>)) {
    if (!name.trim()) return 'has an empty name'
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return `"${name}" must be a non-negative number`
  }
  return undefined
}
const positive = (value: unknown) => ((value as number) < 1 ? 'must be at least 1' : undefined)

/** Audio token prices and the realtime WebSocket's bounds (src/realtime/, docs/api.md "Realtime"). */
export const REALTIME_OPTIONS: Record<string, OptionDefinition> = {
  AudioRatio: { type: 'json', default: '{}', description: "model → audio input price as a multiple of its text input price (new-api's AudioRatio; missing = the shipped table, else 1)", check: ratioTable },
  AudioCompletionRatio: { type: 'json', default: '{}', description: "model → audio output price as a multiple of its audio input price (new-api's AudioCompletionRatio; missing = the shipped table, else 1)", check: ratioTable },
  RealtimeReserveTokens: { type: 'integer', default: '8000', description: 'a realtime session holds what this many input and as many output tokens cost (at its audio prices), and tops the hold up by as much whenever its spending comes within that of it', check: positive },
  RealtimeMaxEventsPerSecond: { type: 'integer', default: '100', description: 'client events a realtime session relays per second; more are answered with an error event and dropped', check: positive },
  RealtimeMaxSessionSeconds: { type: 'integer', default: '3600', description: 'a realtime session is ended (an error event, then a close) after this long', check: positive },
}
