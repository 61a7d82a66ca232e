/**
 * The invalidation topics nodes tell each other about (through `coord.publish`/`subscribe`), and their payloads.
 * A payload names what changed, by id: never a secret, a raw key or a session cookie. The one hash is a dead
 * key's (`keyDigest`): channel keys are told apart by value, and a key's SHA-256 prefix reveals nothing of it.
 */
export const Topic = {
  /** user ids: the row changed or went (balance, status, role, password or session version); its tokens' owner with it */
  users: 'users',
  /** token ids: the row changed or went */
  tokens: 'tokens',
  /** channel ids: written, created, deleted, enabled or disabled (their abilities with them) */
  channels: 'channels',
  /** an option's key; every option is read again */
  options: 'options',
  /** `<expiresAt> <sessionId>`: a session ended by logout */
  sessions: 'sessions',
  /** `<channelId> <keyDigest> <0|1>`: a key of a pool put back into (0) or taken out of (1) the rotation */
  keys: 'keys',
} as const

export type TopicName = (typeof Topic)[keyof typeof Topic]

export const idList = (ids: readonly (number | string)[]): string => ids.join(',')

/** `1,2,3` → [1, 2, 3]; anything that is not a positive integer is dropped. */
export function parseIds(payload: string): number[] {
  return payload
    .split(',')
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0)
}

export const sessionPayload = (sessionId: string, expiresAt: number): string => `${expiresAt} ${sessionId}`

export function parseSession(payload: string): { sessionId: string; expiresAt: number } | undefined {
  const space = payload.indexOf(' ')
  const expiresAt = Number(payload.slice(0, space))
  const sessionId = payload.slice(space + 1)
  return space > 0 && Number.isFinite(expiresAt) && sessionId ? { sessionId, expiresAt } : undefined
}

/** The first 16 hex digits of a key's SHA-256: enough to tell a channel's keys apart, nothing to recover one from. */
export const keyDigest = (key: string): string => (Bun.SHA256.hash(key, 'hex') as string).slice(0, 16)

export const keyPayload = (channelId: number, key: string, dead: boolean): string => `${channelId} ${keyDigest(key)} ${dead ? 1 : 0}`

export function parseKeyChange(payload: string): { channelId: number; digest: string; dead: boolean } | undefined {
  const [id, digest, dead] = payload.split(' ')
  const channelId = Number(id)
  return Number.isSafeInteger(channelId) && digest && (dead === '0' || dead === '1') ? { channelId, digest, dead: dead === '1' } : undefined
}
