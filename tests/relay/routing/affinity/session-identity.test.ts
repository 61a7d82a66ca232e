import { expect, test } from 'bun:test'
import { sessionIdentity } from '../../../../src/relay/routing/affinity/session-identity'
import { capture, clientHeaders } from '../../../helpers/agent-sessions'

const identityOf = (headers: Record<string, string>, body: Record<string, unknown>) => sessionIdentity(new Headers(headers), (key) => body[key])

test('each captured client request names its session', () => {
  const cases: [string, string, string][] = [
    ['claude-code-first-request', 'claude-code', 'ece1098f-3e05-4236-95a6-5e403a7a3eff'],
    ['claude-code-tool-result-followup', 'claude-code', 'ece1098f-3e05-4236-95a6-5e403a7a3eff'],
    ['codex-responses-first-request', 'codex', '01a1fee0-5f85-7b10-ae5a-254bb19959d2'],
    ['codex-responses-tool-followup', 'codex', '01a1fee0-5f85-7b10-ae5a-254bb19959d2'],
    ['opencode-anthropic', 'opencode', 'ses_e011ec6f0ffeafySS3tcXGhXFy'],
    ['opencode-chat-tool-followup', 'opencode', 'ses_e011eb0eeffem7FvHZox4n0vok'],
    ['opencode-responses', 'opencode', 'ses_e011ed718ffeUQ9flhjazRDqDM'],
  ]
  for (const [name, rule, id] of cases) {
    const c = capture(name)
    expect(identityOf(clientHeaders(c, 'sk-x'), c.body), name).toEqual({ rule: rule as never, id })
  }
})

test("without its header, Claude Code's session is the session part of metadata.user_id, in both formats", () => {
  const c = capture('claude-code-first-request')
  expect(identityOf({}, c.body)).toEqual({ rule: 'claude-code', id: 'ece1098f-3e05-4236-95a6-5e403a7a3eff' })
  const legacy = { metadata: { user_id: 'user_abc123_account_0f3e_session_5a1b2c3d-0000-4000-8000-000000000001' } }
  expect(identityOf({}, legacy)).toEqual({ rule: 'claude-code', id: '5a1b2c3d-0000-4000-8000-000000000001' })
  // a device without a session part names no session (one device runs many)
  expect(identityOf({}, { metadata: { user_id: JSON.stringify({ device_id: 'd', account_uuid: '' }) } })).toBeUndefined()
  expect(identityOf({}, { metadata: { user_id: '{not json' } })).toBeUndefined()
})

test('prompt_cache_key, Gemini cachedContent and OpenAI user follow, in that order; oversized or empty values name nothing', () => {
  expect(identityOf({}, { prompt_cache_key: 'pck', user: 'u' })).toEqual({ rule: 'prompt-cache-key', id: 'pck' })
  expect(identityOf({}, { cachedContent: 'cachedContents/abc' })).toEqual({ rule: 'gemini-cached-content', id: 'cachedContents/abc' })
  expect(identityOf({}, { user: 'end-user-7' })).toEqual({ rule: 'openai-user', id: 'end-user-7' })
  expect(identityOf({}, { user: 'x'.repeat(513) })).toBeUndefined()
  expect(identityOf({}, { user: '   ', prompt_cache_key: 42 })).toBeUndefined()
  expect(identityOf({}, {})).toBeUndefined()
})
