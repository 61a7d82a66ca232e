import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A secret from the environment, or one generated on first start into the data dir (mode 0600)
 * so that restarts keep sessions and encrypted data readable.
 */
export function loadOrCreateSecret(dataDir: string, fileName: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv
  const path = join(dataDir, fileName)
  if (existsSync(path)) {
    const stored = readFileSync(path, 'utf8').trim()
    if (stored.length >= 32) return stored
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  writeFileSync(path, secret + '\n', { mode: 0o600 })
  chmodSync(path, 0o600)
  return secret
}
