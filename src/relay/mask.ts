const KEY_LIKE = /\b(sk-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]{8,}([A-Za-z0-9]{4})\b|\b(AIza[0-9A-Za-z_-]{4})[0-9A-Za-z_-]{20,}/g

/** Upstream error texts sometimes echo the key; never let one reach a client or a log line. */
export function maskSecrets(text: string, key?: string): string {
  let out = key && key.length >= 8 ? text.replaceAll(key, `${key.slice(0, 3)}***${key.slice(-4)}`) : text
  out = out.replace(KEY_LIKE, (_m, a?: string, b?: string, g?: string) => (g ? `${g}***` : `${a}***${b}`))
  return out.length > 2000 ? `${out.slice(0, 2000)}…` : out
}

/** `…wxyz`: enough for an operator to tell a channel's keys apart, never enough to use one. */
export function keyHint(key: string): string {
  return key.length >= 12 ? `…${key.slice(-4)}` : '…'
}
