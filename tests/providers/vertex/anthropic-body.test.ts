import { expect, test } from 'bun:test'
import { BadRequestError } from '../../../src/errors'
import {
  VERTEX_ANTHROPIC_VERSION,
  vertexAnthropicBetas,
  vertexAnthropicBody,
  vertexAnthropicCountTokensBody,
  vertexRefusedBetas,
} from '../../../src/providers/vertex'

const claudeCodeBody = () => ({
  model: 'claude-sonnet-4-5-20250929',
  max_tokens: 32000,
  stream: true,
  system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  thinking: { type: 'enabled', budget_tokens: 31999 },
  metadata: { user_id: 'user_abc' },
  diagnostics: null,
})

test('the body for rawPredict: no model, Vertex\'s anthropic_version, refused fields dropped with a warning, the rest untouched', () => {
  const input = claudeCodeBody()
  const warnings: string[] = []
  const body = vertexAnthropicBody(input, warnings)
  const { model: _m, diagnostics: _d, ...kept } = claudeCodeBody()
  expect(body).toEqual({ ...kept, anthropic_version: 'vertex-2023-10-16' })
  expect(body.system).toBe(input.system) // not copied deep
  expect(warnings).toEqual(['dropped `diagnostics`: Vertex AI refuses it'])
  expect(input.model).toBe('claude-sonnet-4-5-20250929') // the caller's object is left alone
  expect(vertexAnthropicBody({ messages: [], anthropic_version: 'bedrock-2023-05-31' }, []).anthropic_version).toBe(VERTEX_ANTHROPIC_VERSION)
})

test('count-tokens keeps the model in the body, as Vertex names it', () => {
  const warnings: string[] = []
  expect(vertexAnthropicCountTokensBody({ model: 'claude-sonnet-4-5-20250929', messages: [] }, 'claude-sonnet-4-5@20250929', warnings))
    .toEqual({ model: 'claude-sonnet-4-5@20250929', messages: [], anthropic_version: 'vertex-2023-10-16' })
  expect(warnings).toEqual([])
})

test('a document by URL, at top level or inside a tool result, is a 400 naming where', () => {
  const doc = { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } }
  const cases = [
    { messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, doc] }] },
    { messages: [{ role: 'user', content: 'plain' }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [doc] }] }] },
  ]
  const where = ['messages.0.content.1', 'messages.1.content.0']
  cases.forEach((body, i) => {
    let error: BadRequestError | undefined
    try {
      vertexAnthropicBody(body, [])
    } catch (e) {
      error = e as BadRequestError
    }
    expect(error).toBeInstanceOf(BadRequestError)
    expect(error!.message).toStartWith(`${where[i]}: Vertex AI does not take a document by URL`)
  })
  const base64 = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' } }
  expect(() => vertexAnthropicBody({ messages: [{ role: 'user', content: [base64] }] }, [])).not.toThrow()
})

test('anthropic-beta: refused flags dropped and named, the rest kept in order; none for count-tokens', () => {
  const header = 'claude-code-20250219,interleaved-thinking-2025-05-14, prompt-caching-scope-2026-01-05,context-management-2025-06-27,redact-thinking-2026-02-12'
  const warnings: string[] = []
  expect(vertexAnthropicBetas(header, warnings)).toBe('claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27')
  expect(warnings).toEqual(['dropped anthropic-beta prompt-caching-scope-2026-01-05, redact-thinking-2026-02-12: not served by Vertex AI'])
  const counting: string[] = []
  expect(vertexAnthropicBetas('token-counting-2024-11-01,effort-2025-11-24', counting, true)).toBeUndefined()
  expect(counting).toEqual(['dropped anthropic-beta token-counting-2024-11-01, effort-2025-11-24: Vertex AI counts tokens without betas'])
  const none: string[] = []
  expect(vertexAnthropicBetas(undefined, none)).toBeUndefined()
  expect(vertexAnthropicBetas('files-api-2025-04-14', none)).toBeUndefined()
  expect(vertexAnthropicBetas('x-1', [], false, new Set(['x-1']))).toBeUndefined()
})

test('vertexRefusedBetas reads the flags out of Vertex\'s 400, nothing out of other errors', () => {
  const message = 'Unexpected value(s) `advisor-tool-2026-03-01`, `thinking-token-count-2026-05-13` for the `anthropic-beta` header. Please consult our documentation at docs.anthropic.com or try again without the header.'
  expect(vertexRefusedBetas(message)).toEqual(['advisor-tool-2026-03-01', 'thinking-token-count-2026-05-13'])
  expect(vertexRefusedBetas('max_tokens: Field required')).toEqual([])
})
