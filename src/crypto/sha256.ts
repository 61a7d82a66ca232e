/** sha-256 hex; used for access tokens (high-entropy, so a fast hash is the right one). */
export function sha256(text: string): string {
  return Bun.SHA256.hash(text, 'hex') as string
}
