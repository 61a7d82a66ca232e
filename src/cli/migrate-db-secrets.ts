import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Config } from '../config'
import { createSecretBox } from '../crypto/secret-box'
import { CRYPTO_SECRET_FILE, readSecretsFile, SESSION_SECRET_FILE } from '../backup/backup'

export interface FoundSecret {
  name: 'SESSION_SECRET' | 'CRYPTO_SECRET'
  value: string | undefined
  /** where it was found: `the environment`, a file path, or where it was looked for */
  where: string
  /** a file holding exactly the value (for `$(cat …)`) */
  file?: string
}

/**
 * The two secrets the copied instance runs with, found as its server would: the environment first, then
 * (for `--from backup.db`) the backup's `backup.db.secrets`, then the files SQLite generated in its data dir.
 */
export function findSecrets(config: Pick<Config, 'dataDir' | 'sessionSecret' | 'cryptoSecret'>, from: string | undefined): FoundSecret[] {
  const dir = from ? dirname(from) : config.dataDir
  const backup = from && existsSync(`${from}.secrets`) ? `${from}.secrets` : undefined
  const fromBackup = backup ? readSecretsFile(backup) : undefined
  const find = (name: FoundSecret['name'], env: string | undefined, file: string, inBackup: string | undefined): FoundSecret => {
    if (env) return { name, value: env, where: 'the environment' }
    if (inBackup) return { name, value: inBackup, where: backup! }
    const path = join(dir, file)
    const value = readSecret(path)
    return value ? { name, value, where: path, file: path } : { name, value: undefined, where: path }
  }
  return [
    find('SESSION_SECRET', config.sessionSecret, SESSION_SECRET_FILE, fromBackup?.session),
    find('CRYPTO_SECRET', config.cryptoSecret, CRYPTO_SECRET_FILE, fromBackup?.crypto),
  ]
}

function readSecret(path: string): string | undefined {
  try {
    const value = readFileSync(path, 'utf8').trim()
    return value.length >= 32 ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * What to tell the operator: every node needs both secrets in its environment (PostgreSQL nodes share no
 * data directory). Values only with `show`. The crypto secret is tried on one copied channel key, so a wrong
 * one is caught now rather than as unreadable channels on the first node.
 */
export async function secretsAdvice(secrets: FoundSecret[], sealedKey: string | undefined, show: boolean, sealedSettings: { name: string; sealed: string }[] = []): Promise<string> {
  const lines = [
    'Secrets: every node must run with the SESSION_SECRET and CRYPTO_SECRET of this instance in its environment',
    '(PostgreSQL nodes share no data directory); without them the channel keys stay unreadable and sessions end.',
  ]
  for (const secret of secrets) {
    if (!secret.value) lines.push(`  ${secret.name}: not found (looked in the environment and ${secret.where})`)
    else if (show) lines.push(`  ${secret.name}=${secret.value}`)
    else if (secret.file) lines.push(`  ${secret.name}="$(cat ${secret.file})"`)
    else lines.push(`  ${secret.name}: the value in ${secret.where}`)
  }
  if (!show && secrets.some((s) => s.value)) lines.push('Put them in each node\'s environment (a secrets manager, or an env file of mode 0600); --show-secrets prints the values.')
  const crypto = secrets.find((s) => s.name === 'CRYPTO_SECRET')?.value
  if (sealedKey && crypto) {
    const opens = await createSecretBox(crypto)
      .decrypt(sealedKey)
      .then(() => true)
      .catch(() => false)
    lines.push(opens ? 'The crypto secret opens the copied channel keys.' : 'WARNING: this crypto secret does NOT open the copied channel keys: find the CRYPTO_SECRET the instance ran with.')
  } else if (sealedKey) {
    lines.push('WARNING: without the crypto secret the copied channel keys cannot be read.')
  }
  if (sealedSettings.length > 0) lines.push(await settingsAdvice(crypto, sealedSettings))
  return lines.join('\n')
}

/** The sealed settings (SMTPToken, client secrets, bot tokens, custom providers' secrets) tried with the crypto secret too. */
async function settingsAdvice(crypto: string | undefined, sealed: { name: string; sealed: string }[]): Promise<string> {
  const names = (list: { name: string }[]) => list.map((s) => s.name).join(', ')
  if (!crypto) return `WARNING: without the crypto secret the sealed settings cannot be read: ${names(sealed)}.`
  const box = createSecretBox(crypto)
  const closed = []
  for (const setting of sealed) {
    if (!(await box.decrypt(setting.sealed).then(() => true, () => false))) closed.push(setting)
  }
  if (closed.length === 0) return `The crypto secret opens the sealed settings too (${names(sealed)}).`
  return `WARNING: this crypto secret does NOT open these sealed settings: ${names(closed)} (set them again in Settings, or find the CRYPTO_SECRET they were sealed with).`
}
