import { codexKeyOrThrow } from './codex/key'
import type { Provider } from './types'
import { joinUrl } from './url'

/** Where the ChatGPT backend serves Codex (new-api's ChannelBaseURLs[57]) and its Responses path. */
export const CODEX_BASE_URL = 'https://chatgpt.com'
const RESPONSES_PATH = '/backend-api/codex/responses'

/** What Codex CLI sends besides its token (new-api sends the same when the client did not). */
const CODEX_HEADERS = { 'openai-beta': 'responses=experimental', originator: 'codex_cli_rs', accept: 'text/event-stream', 'content-type': 'application/json' }

/**
 * Codex with a ChatGPT sign-in (new-api type 57): a ChatGPT Plus/Pro subscription serving Codex's models through the
 * ChatGPT backend. The key is the sign-in's tokens (codex/key.ts), made by "Sign in with ChatGPT" (src/codex/) and
 * refreshed before they expire; each call carries the access token and the account id. Responses clients (Codex
 * CLI) pass through, chat and Messages clients are converted; the backend always streams.
 */
export const codex: Provider = {
  type: 57,
  id: 'codex',
  name: 'Codex (ChatGPT sign-in)',
  protocols: ['codex'],
  endpoints: { codex: { path: RESPONSES_PATH } },
  connector: {
    async prepare(call) {
      const key = codexKeyOrThrow(call.key)
      const url = joinUrl(call.baseUrl || CODEX_BASE_URL, RESPONSES_PATH)
      return { url, headers: { ...call.headers, ...CODEX_HEADERS, authorization: `Bearer ${key.access_token}`, 'chatgpt-account-id': key.account_id } }
    },
  },
  defaultBaseUrl: CODEX_BASE_URL,
  auth: 'bearer',
  keyRequired: true,
  testModel: 'gpt-5.4-mini',
  models: ['gpt-5.5', 'gpt-5.4', 'gpt-5.4-mini', 'gpt-5.3-codex-spark', 'gpt-5-codex'],
  quirks: {},
  checkKey: (key) => void codexKeyOrThrow(key),
  note: 'Key: a ChatGPT sign-in (Sign in with ChatGPT in the channel drawer), refreshed before it expires. Answers always stream; temperature and output caps are not sent.',
}
