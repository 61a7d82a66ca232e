import { describe, expect, test } from 'bun:test'
import { collect, emptyIrRequestForTest } from './util.ts'
import { openaiChat } from '../../../src/protocols/openai-chat/index.ts'
import { decodeAll, encodeAll, toolScript, USAGE } from '../helpers.ts'

const chunk = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-x', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`

describe('chat stream encoder', () => {
  test('exact framing with include_usage', () => {
    const req = emptyIrRequestForTest({ includeUsage: true })
    const frames = encodeAll(openaiChat, [{ ...toolScript()[0]!, id: 'chatcmpl-1' } as never, ...toolScript().slice(1)], { request: req, model: 'gpt-x' })
    expect(frames).toEqual([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'Let me ' }),
      chunk({ reasoning_content: 'think.' }),
      chunk({ content: 'Running ' }),
      chunk({ content: 'tools.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'Bash', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'Read', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"command":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"file_path":"/x"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] }),
      chunk({}, 'tool_calls'),
      `data: ${JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1700000000,
        model: 'gpt-x',
        choices: [],
        usage: { prompt_tokens: 160, completion_tokens: 42, total_tokens: 202, prompt_tokens_details: { cached_tokens: 50 }, completion_tokens_details: { reasoning_tokens: 12 } },
      })}\n\n`,
      'data: [DONE]\n\n',
    ])
  })

  test('no usage chunk without include_usage; error chunk', () => {
    const frames = encodeAll(openaiChat, [{ type: 'start', id: 'chatcmpl-1', model: 'gpt-x' }, { type: 'usage', usage: USAGE }, { type: 'finish', reason: { unified: 'stop' } }])
    expect(frames.length).toBe(3)
    expect(frames[1]).toContain('"finish_reason":"stop"')
    expect(frames[2]).toBe('data: [DONE]\n\n')
    const err = encodeAll(openaiChat, [{ type: 'start', id: 'chatcmpl-1', model: 'gpt-x' }, { type: 'error', error: { status: 429, message: 'slow down' } }])
    expect(err.at(-1)).toBe('data: {"error":{"message":"slow down","type":"rate_limit_error","param":null,"code":null}}\n\n')
  })
})

describe('chat stream decoder', () => {
  test('parallel tool calls by index, name before args, usage chunk after finish, [DONE]', () => {
    const sse =
      chunk({ role: 'assistant', content: '' }) +
      chunk({ reasoning_content: 'hm' }) +
      chunk({ content: 'Hi' }) +
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'a', arguments: '' } }] }) +
      chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'b', arguments: '{"y"' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":1}' } }] }) +
      chunk({ tool_calls: [{ index: 1, function: { arguments: ':2}' } }] }) +
      chunk({}, 'tool_calls') +
      `data: ${JSON.stringify({ id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 120, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 100 }, completion_tokens_details: { reasoning_tokens: 10 } } })}\n\n` +
      'data: [DONE]\n\n'
    const res = collect(decodeAll(openaiChat, sse))
    expect(res.parts).toEqual([
      { type: 'reasoning', text: 'hm', origin: 'openai-chat' },
      { type: 'text', text: 'Hi' },
      { type: 'tool-call', id: 'call_1', name: 'a', arguments: '{"x":1}' },
      { type: 'tool-call', id: 'call_2', name: 'b', arguments: '{"y":2}' },
    ])
    expect(res.finish).toEqual({ unified: 'tool_calls', raw: 'tool_calls' })
    // prompt_tokens includes cached_tokens; completion includes reasoning: never counted twice
    expect(res.usage).toEqual({ input: { noCache: 20, cacheRead: 100, cacheWrite: 0 }, output: { text: 20, reasoning: 10 } })
    const tap = openaiChat.createUsageTap()
    for (const part of sse.split('\n\n').filter(Boolean)) tap.push({ data: part.slice(6) })
    expect(tap.usage()).toEqual(res.usage)
  })
})
