import type { MessageKey } from '../i18n'

/** The ChatGPT sign-in's stable codes (src/modules/codex, src/codex), worded in the codex catalog. */
const CODEX_CODES = ['codex_oauth_not_started', 'codex_oauth_state_mismatch', 'codex_oauth_failed', 'codex_no_account', 'codex_refresh_running', 'codex_no_refresh_token'] as const

export function codexErrorKey(code: string | undefined): MessageKey | undefined {
  return code && (CODEX_CODES as readonly string[]).includes(code) ? (`codex.error.${code}` as MessageKey) : undefined
}
