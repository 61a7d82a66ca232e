import { accounts } from '../i18n/en/accounts'
import { messenger } from '../i18n/en/messenger'
import type { MessageKey } from '../i18n'

/** The sign-in providers' and bindings' refusals the console words itself (their catalog has the code). */
export function accountErrorKey(code: string | undefined): MessageKey | undefined {
  const key = `accounts.error.${code}`
  return code && (key in accounts || key in messenger) ? (key as MessageKey) : undefined
}
