import { describe, expect, test } from 'bun:test'
import { chatBody, checkSettings, errorMessage, readChunk, type ChatSettings } from '../../src/ui/lib/chat'

const settings = (over: Partial<ChatSettings> = {}): ChatSettings => ({ model: 'gpt-4o-mini', system: '', temperature: '', maxTokens: '', ...over })

describe('playground settings', () => {
  test('a model is required; temperature 0–2 and max tokens ≥ 1 when given', () => {
    expect(checkSettings(settings())).toEqual({})
    expect(checkSettings(settings({ model: '' }))).toEqual({ model: 'required' })
    for (const ok of ['0', '0.7', '.5', '2', '2.0', ' 1 ']) expect(checkSettings(settings({ temperature: ok }))).toEqual({})
    for (const bad of ['-1', '2.1', 'hot', '1e0', '1.']) expect(checkSettings(settings({ temperature: bad }))).toEqual({ temperature: 'temperature' })
    for (const ok of ['1', '4096']) expect(checkSettings(settings({ maxTokens: ok }))).toEqual({})
    for (const bad of ['0', '-5', '1.5', 'many', '99999999999999999999']) expect(checkSettings(settings({ maxTokens: bad }))).toEqual({ maxTokens: 'maxTokens' })
  })

  test('the body streams with usage, puts the system prompt first and leaves unset parameters out', () => {
    const history = [
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: '' },
      { role: 'assistant' as const, content: 'Hello' },
      { role: 'user' as const, content: 'More' },
    ]
    expect(chatBody(settings(), history)).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'More' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    })
    const full = chatBody(settings({ system: 'Be brief', temperature: '0.5', maxTokens: '100' }), history.slice(0, 1))
    expect(full).toMatchObject({ messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Hi' }], temperature: 0.5, max_tokens: 100 })
  })
})

describe('stream chunks', () => {
  test('content, reasoning, usage, [DONE] and errors', () => {
    expect(readChunk('{"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"}}]}')).toEqual({ content: 'Hi' })
    expect(readChunk('{"choices":[{"delta":{"reasoning_content":"hmm"}}]}')).toEqual({ reasoning: 'hmm' })
    expect(readChunk('{"choices":[{"delta":{"reasoning":"hmm"}}]}')).toEqual({ reasoning: 'hmm' })
    expect(readChunk('{"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}}')).toEqual({ usage: { prompt_tokens: 7, completion_tokens: 3 } })
    expect(readChunk('[DONE]')).toEqual({ done: true })
    expect(readChunk('{"error":{"message":"upstream went away","type":"server_error"}}')).toEqual({ error: 'upstream went away' })
    expect(readChunk('{"choices":[{"delta":{"content":""},"finish_reason":"stop"}]}')).toEqual({})
    expect(readChunk('not json')).toEqual({})
    expect(readChunk('null')).toEqual({})
  })

  test('error bodies in the OpenAI shape and the envelope', () => {
    expect(errorMessage({ error: { message: 'insufficient quota', type: 'x' } })).toBe('insufficient quota')
    expect(errorMessage({ success: false, message: 'not logged in' })).toBe('not logged in')
    expect(errorMessage({ error: 'plain' })).toBe('plain')
    expect(errorMessage(null)).toBeUndefined()
    expect(errorMessage({})).toBeUndefined()
  })
})

test('images go as image_url parts beside the text; the request view cuts data: URLs short', async () => {
  const { bodyForView, chatBody } = await import('../../src/ui/lib/chat')
  const image = `data:image/png;base64,${'A'.repeat(5000)}`
  const body = chatBody({ model: 'gpt-4o', system: '', temperature: '', maxTokens: '' }, [{ role: 'user', content: 'what is this?', images: [image] }]) as { messages: unknown[] }
  expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: image } }] }])
  const view = bodyForView(body)
  expect(view).toContain('(5022 characters)')
  expect(view).not.toContain('A'.repeat(100))
})
