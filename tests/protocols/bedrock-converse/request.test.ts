import { describe, expect, test } from 'bun:test'
import { emptyRequest, UnsupportedFeatureError, type IrRequest } from '../../../src/ir/index.ts'
import { anthropic } from '../../../src/protocols/anthropic/index.ts'
import { bedrockConverse } from '../../../src/protocols/bedrock-converse/index.ts'
import { openaiChat } from '../../../src/protocols/openai-chat/index.ts'

const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'
const req = (over: Partial<IrRequest>, model = CLAUDE): IrRequest => ({ ...emptyRequest(model), ...over })
const encode = (r: IrRequest) => bedrockConverse.encodeRequest(r)

describe('bedrock converse request', () => {
  test('text, system prompt, inference config; no model or stream in the body', () => {
    const { value, warnings } = encode(
      req({
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }, { type: 'text', text: '  ' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
          { role: 'user', content: [{ type: 'text', text: 'More' }] },
        ],
        maxOutputTokens: 300,
        sampling: { temperature: 0.2, topP: 0.9, stop: ['END'], seed: 7 },
        stream: true,
      }),
    )
    expect(value).toEqual({
      system: [{ text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ text: 'Hi' }] },
        { role: 'assistant', content: [{ text: 'Hello' }] },
        { role: 'user', content: [{ text: 'More' }] },
      ],
      inferenceConfig: { maxTokens: 300, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
    })
    expect(warnings).toEqual(['seed/frequency_penalty/presence_penalty: not supported by Bedrock Converse, dropped'])
  })

  test('an OpenAI chat request with parallel tool calls, tool results (one empty) and an image', () => {
    const { value: ir } = openaiChat.decodeRequest({
      model: 'x',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
            { id: 'call_b', type: 'function', function: { name: 'ls', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'A' },
        { role: 'tool', tool_call_id: 'call_b', content: '' },
        { role: 'user', content: 'and?' },
      ],
      tools: [
        { type: 'function', function: { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
        { type: 'function', function: { name: 'ls', parameters: {} } },
      ],
      tool_choice: 'required',
    })
    const { value } = encode({ ...ir, model: CLAUDE })
    expect(value.system).toEqual([{ text: 'sys' }])
    expect(value.messages).toEqual([
      { role: 'user', content: [{ text: 'look' }, { image: { format: 'jpeg', source: { bytes: '/9j/4AAQ' } } }] },
      {
        role: 'assistant',
        content: [
          { toolUse: { toolUseId: 'call_a', name: 'read', input: { path: 'a' } } },
          { toolUse: { toolUseId: 'call_b', name: 'ls', input: {} } },
        ],
      },
      // tool results and the next user text merge into one user turn (Converse alternates roles)
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'call_a', content: [{ text: 'A' }] } },
          { toolResult: { toolUseId: 'call_b', content: [{ text: '(no output)' }] } },
          { text: 'and?' },
        ],
      },
    ])
    expect(value.toolConfig).toEqual({
      tools: [
        { toolSpec: { name: 'read', description: 'Read a file', inputSchema: { json: { type: 'object', properties: { path: { type: 'string' } } } } } },
        { toolSpec: { name: 'ls', inputSchema: { json: { type: 'object', properties: {} } } } },
      ],
      toolChoice: { any: {} },
    })
  })

  test('an Anthropic request: error tool results, cache breakpoints, a PDF, forced tool, thinking budget', () => {
    const { value: ir } = anthropic.decodeRequest({
      model: 'claude',
      max_tokens: 4000,
      system: [{ type: 'text', text: 'long system', cache_control: { type: 'ephemeral' } }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
      temperature: 0.5,
      top_k: 5,
      messages: [
        { role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0' }, title: 'Q3 report.pdf' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: 'denied', cache_control: { type: 'ephemeral' } }] },
      ],
      tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
      tool_choice: { type: 'tool', name: 'Bash' },
    })
    const { value, warnings } = encode(ir)
    expect(value.system).toEqual([{ text: 'long system' }, { cachePoint: { type: 'default' } }])
    const messages = value.messages as { content: unknown[] }[]
    expect(messages[0]!.content).toEqual([{ document: { format: 'pdf', name: 'Q3 report', source: { bytes: 'JVBERi0' } } }])
    expect(messages[2]!.content).toEqual([{ toolResult: { toolUseId: 'toolu_1', content: [{ text: 'denied' }], status: 'error' } }, { cachePoint: { type: 'default' } }])
    expect(value.toolConfig).toMatchObject({ toolChoice: { tool: { name: 'Bash' } } })
    expect(value.inferenceConfig).toEqual({ maxTokens: 4000 })
    expect(value.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } })
    expect(warnings).toEqual(['temperature: not allowed with thinking, dropped', 'top_k: not allowed with thinking, dropped'])
  })

  test('reasoning per model family; a budget that does not fit disables thinking', () => {
    const reasoning = { enabled: true, effort: 'high' as const }
    expect(encode(req({ reasoning }, 'amazon.nova-2-lite-v1:0')).value.additionalModelRequestFields).toEqual({ reasoningConfig: { type: 'enabled', maxReasoningEffort: 'high' } })
    expect(encode(req({ reasoning: { budgetTokens: 2000 } }, 'openai.gpt-oss-120b-1:0')).value.additionalModelRequestFields).toEqual({ reasoning_effort: 'low' })
    const adaptive = encode(req({ reasoning: { adaptive: true } }, 'global.anthropic.claude-opus-4-7'))
    expect(adaptive.value.additionalModelRequestFields).toEqual({ thinking: { type: 'adaptive' } })
    const other = encode(req({ reasoning, sampling: { topK: 3 } }, 'mistral.mistral-large-2407-v1:0'))
    expect(other.value.additionalModelRequestFields).toBeUndefined()
    expect(other.warnings).toEqual(['reasoning: this model takes no reasoning settings through Bedrock Converse, dropped', 'top_k: not supported by this model on Bedrock Converse, dropped'])
    const cramped = encode(req({ reasoning, maxOutputTokens: 800 }))
    expect(cramped.value.additionalModelRequestFields).toBeUndefined()
    expect(cramped.warnings).toEqual(['thinking: maxTokens 800 leaves no room for a thinking budget ≥ 1024, thinking disabled'])
    const defaulted = encode(req({ reasoning }))
    expect(defaulted.value.inferenceConfig).toEqual({ maxTokens: 8192 })
    expect(defaulted.value.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 8191 } })
    expect(encode(req({ sampling: { topK: 4 } })).value.additionalModelRequestFields).toEqual({ top_k: 4 })
  })

  test('reasoning with its signature goes back only when Bedrock Converse made it', () => {
    const { value, warnings } = encode(
      req({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'mine', signature: 'SIG-B', origin: 'bedrock-converse' },
              { type: 'reasoning', text: '', redacted: true, encrypted: 'RED', origin: 'bedrock-converse' },
              { type: 'reasoning', text: 'theirs', signature: 'SIG-A', origin: 'anthropic' },
              { type: 'text', text: 'answer' },
            ],
          },
        ],
      }),
    )
    expect((value.messages as { content: unknown[] }[])[1]!.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'mine', signature: 'SIG-B' } } },
      { reasoningContent: { redactedContent: 'RED' } },
      { text: 'answer' },
    ])
    expect(warnings).toEqual(['messages[1].content[2]: reasoning from anthropic cannot be sent to Bedrock Converse, dropped'])
  })

  test('structured output, JSON mode, tool history without tools, media Converse cannot fetch', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }
    expect(encode(req({ responseFormat: { type: 'json_schema', name: 'out', schema } })).value.outputConfig).toEqual({
      textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: JSON.stringify(schema), name: 'out' } } },
    })
    const json = encode(req({ responseFormat: { type: 'json_object' } }))
    expect((json.value.system as { text: string }[])[0]!.text).toContain('JSON object')
    const history = encode(
      req({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', content: [{ type: 'tool-call', id: 't1', name: 'search', arguments: '{}' }] },
          { role: 'tool', content: [{ type: 'tool-result', callId: 't1', content: [{ type: 'text', text: 'r' }] }] },
        ],
      }),
    )
    expect(history.value.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'search', inputSchema: { json: { type: 'object', properties: {} } } } }] })
    expect(encode(req({ tools: [{ kind: 'function', name: 'f', parameters: {} }], toolChoice: { type: 'none' } })).value.toolConfig).toBeUndefined()
    const byUrl = req({ messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' } }] }] })
    expect(() => encode(byUrl)).toThrow(UnsupportedFeatureError)
    try {
      encode(byUrl)
    } catch (e) {
      expect((e as UnsupportedFeatureError).param).toBe('messages[0].content[0]')
    }
    const s3 = req({ messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 's3://bucket/cat.webp' }, mediaType: 'image/webp' }] }] })
    expect((encode(s3).value.messages as { content: unknown[] }[])[0]!.content).toEqual([{ image: { format: 'webp', source: { s3Location: { uri: 's3://bucket/cat.webp' } } } }])
  })
})
