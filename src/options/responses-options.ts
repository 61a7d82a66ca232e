import type { OptionDefinition } from './option-definition'

const positive = (value: unknown) => ((value as number) < 1 ? 'must be at least 1' : undefined)

/** Stored OpenAI responses routed to the channel that created them (relay/responses, docs/routing.md). */
export const RESPONSES_OPTIONS: Record<string, OptionDefinition> = {
  ResponsesStoreTtlSeconds: { type: 'integer', default: '2592000', description: "how long the gateway remembers which channel and key created a stored response (OpenAI keeps them 30 days); after it the id is unknown (404)", check: positive },
  ResponsesStoreMaxEntries: { type: 'integer', default: '100000', description: 'stored responses one node remembers at most (the least recently used go first; Redis keeps them by TTL)', check: positive },
}
