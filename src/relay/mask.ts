const KEY_LIKE = /\b(sk-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]{8,}([A-Za-z0-9]{4})\b|\b(AIza[0-9A-Za-z_-]{4}|ya29\.)[0-9A-Za-z_.-]{20,}/g

/** The key and, for a compound one (Bedrock's `ACCESS_KEY_ID|SECRET|REGION`), each long part of it: any may be echoed alone. */
function secretsOf(key: string): string[] {
  if (!key.includes('|')) return [key]
  return [key, ...key.split('|').filter((part) => part.trim().length >= 12)]
}

/** Upstream error texts sometimes echo the key; never let one reach a client or a log line. Google access tokens (`ya29.…`) are masked too. */
export function maskSecrets(text: string, key?: string): string {
  let out = text
  if (key && key.length >= 8) for (const secret of secretsOf(key)) out = out.replaceAll(secret.trim(), `${secret.trim().slice(0, 3)}***${secret.trim().slice(-4)}`)
  out = out.replace(KEY_LIKE, (_m, a?: string, b?: string, g?: string) => (g ? `${g}***` : `${a}***${b}`))
  return out.length > 2000 ? `${out.slice(0, 2000)}…` : out
}

/** `…wxyz`: enough for an operator to tell a channel's keys apart, never enough to use one. */
export function keyHint(key: string): string {
  return key.length >= 12 ? `…${key.slice(-4)}` : '…'
}
