import type { SecretBox } from '../crypto/secret-box'
import type { ImportRepo } from '../db/repos'
import type { SourceSchema } from './detect-schema'
import type { Source, SourceRow } from './read-source'
import type { Report } from './report'
import { bool, int, softDeleted, text } from './values'

const BASE32 = /^[A-Z2-7]+=*$/

/** new-api keeps ids and keys in standard base64; WebAuthn and Tollgate in base64url. */
const toBase64Url = (value: string) => Buffer.from(value, 'base64').toString('base64url')

/** new-api's transports: a JSON array, or '' for none. */
function transportsOf(value: unknown): string {
  try {
    const list = JSON.parse(text(value) || '[]') as unknown
    return JSON.stringify(Array.isArray(list) ? list.filter((t) => typeof t === 'string') : [])
  } catch {
    return '[]'
  }
}

const rowsOf = async (source: Source, schema: SourceSchema, table: string): Promise<SourceRow[]> => (schema.tables.has(table) ? (await source.all(table)).filter((row) => !softDeleted(row)) : [])

/**
 * new-api's second factors (two_fas, two_fa_backup_codes, passkey_credentials) for the users that came over: an
 * enabled TOTP with its secret sealed and its unused backup codes (bcrypt hashes, checked as such), and passkeys.
 * A pending (never enabled) TOTP is left behind: its owner never used it.
 */
export async function importSecondFactors(source: Source, schema: SourceSchema, repo: ImportRepo, box: SecretBox, user: (sourceId: number) => number, report: Report): Promise<void> {
  const codes = new Map<number, string[]>()
  for (const row of await rowsOf(source, schema, 'two_fa_backup_codes')) {
    if (bool(row.is_used)) continue
    const list = codes.get(int(row.user_id)) ?? []
    list.push(text(row.code_hash))
    codes.set(int(row.user_id), list)
  }
  for (const row of await rowsOf(source, schema, 'two_fas')) {
    report.read('two_fas')
    const userId = user(int(row.user_id))
    const secret = text(row.secret).toUpperCase().replace(/\s/g, '')
    if (!bool(row.is_enabled)) report.skipped('two_fas', 'never enabled')
    else if (userId === 0) report.skipped('two_fas', 'user not imported')
    else if (!BASE32.test(secret)) report.issue('two_fas', 'secret', 'not a base32 TOTP secret: this user signs in without 2FA', int(row.id))
    else {
      await repo.insertTwoFactor(userId, await box.encrypt(secret), codes.get(int(row.user_id)) ?? [])
      report.imported('two_fas')
    }
  }
  for (const row of await rowsOf(source, schema, 'passkey_credentials')) {
    report.read('passkey_credentials')
    const userId = user(int(row.user_id))
    if (userId === 0) {
      report.skipped('passkey_credentials', 'user not imported')
      continue
    }
    const inserted = await repo.insertPasskey({
      userId,
      credentialId: toBase64Url(text(row.credential_id)),
      publicKey: toBase64Url(text(row.public_key)),
      counter: int(row.sign_count),
      transports: transportsOf(row.transports),
      backedUp: bool(row.backup_state),
      name: '',
    })
    if (inserted) report.imported('passkey_credentials')
    else report.skipped('passkey_credentials', 'credential already in the target')
  }
}
