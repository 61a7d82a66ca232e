import { describe, expect, test } from 'bun:test'
import { collect } from '../../../src/ir/index.ts'
import { openaiResponses } from '../../../src/protocols/openai-responses/index.ts'
import { parseSseText } from '../../../src/protocols/sse.ts'
import { decodeAll, encodeAll, toolScript } from '../helpers.ts'

function events(frames: string[]) {
  return parseSseText(frames.join('')).map((e) => ({ event: e.event, data: JSON.parse(e.data) as Record<string, any> }))
}

describe('responses stream encoder', () => {
  test('event order, sequence numbers and the terminal response.completed with usage', () => {
    const evs = events(encodeAll(openaiResponses, toolScript({ encrypted: 'ENC', origin: 'openai-responses' }), { model: 'gpt-5' }))
    expect(evs.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ])
    evs.forEach((e, i) => {
      expect(e.data.type).toBe(e.event!)
      expect(e.data.sequence_number).toBe(i)
    })
    expect(evs[0]!.data.response).toMatchObject({ id: expect.stringMatching(/^resp_/), object: 'response', status: 'in_progress', model: 'gpt-5', output: [] })
    expect(evs[2]!.data).toMatchObject({ output_index: 0, item: { type: 'reasoning', id: 'rs_1' } })
    expect(evs[8]!.data.item).toEqual({ id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Let me think.' }], encrypted_content: 'ENC' })
    expect(evs[11]!.data).toEqual({ type: 'response.output_text.delta', sequence_number: 11, item_id: 'msg_2', output_index: 1, content_index: 0, delta: 'Running ', logprobs: [] })
    expect(evs[15]!.data.item).toEqual({ id: 'msg_2', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Running tools.', annotations: [], logprobs: [] }] })
    expect(evs[16]!.data.item).toEqual({ id: 'fc_3', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_a', name: 'Bash' })
    expect(evs[19]!.data).toMatchObject({ item_id: 'fc_3', output_index: 2, arguments: '{"command":"ls"}' })
    expect(evs[24]!.data.item).toEqual({ id: 'fc_4', type: 'function_call', status: 'completed', arguments: '{"file_path":"/x"}', call_id: 'call_b', name: 'Read' })
    const done = evs.at(-1)!.data.response
    expect(done.status).toBe('completed')
    expect(done.output.map((o: { type: string }) => o.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call'])
    expect(done.usage).toEqual({ input_tokens: 160, input_tokens_details: { cached_tokens: 50 }, output_tokens: 42, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: 202 })
  })

  test('exact bytes of a minimal text stream', () => {
    const frames = encodeAll(openaiResponses, [
      { type: 'start', id: 'resp_1', model: 'm', created: 1 },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'ok' },
      { type: 'text-end', id: 't' },
      { type: 'finish', reason: { unified: 'stop' } },
    ])
    expect(frames[2]).toBe(
      'event: response.output_item.added\ndata: {"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","role":"assistant","content":[]}}\n\n',
    )
    expect(frames[4]).toBe(
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"ok","logprobs":[]}\n\n',
    )
    expect(frames.at(-1)!.startsWith('event: response.completed\ndata: {"type":"response.completed","sequence_number":8,"response":{"id":"resp_1"')).toBe(true)
  })

  test('length → response.incomplete; errors → response.failed; a cut stream still terminates', () => {
    const inc = events(encodeAll(openaiResponses, [{ type: 'start', id: 'resp_1', model: 'm' }, { type: 'finish', reason: { unified: 'length' } }]))
    expect(inc.at(-1)!.event).toBe('response.incomplete')
    expect(inc.at(-1)!.data.response.incomplete_details).toEqual({ reason: 'max_output_tokens' })
    const failed = events(encodeAll(openaiResponses, [{ type: 'start', id: 'resp_1', model: 'm' }, { type: 'error', error: { message: 'boom', code: 'upstream' } }]))
    expect(failed.at(-1)!.event).toBe('response.failed')
    expect(failed.at(-1)!.data.response.error).toEqual({ code: 'upstream', message: 'boom' })
    const cut = events(encodeAll(openaiResponses, [{ type: 'start', id: 'resp_1', model: 'm' }, { type: 'text-delta', id: 't', delta: 'x' }]))
    expect(cut.map((e) => e.event).slice(-3)).toEqual(['response.content_part.done', 'response.output_item.done', 'response.failed'])
  })
})

describe('responses stream decoder', () => {
  test('decodes an upstream stream with reasoning, text and a function call', () => {
    const f = (type: string, d: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...d })}\n\n`
    const sse =
      f('response.created', { response: { id: 'resp_9', model: 'gpt-5', created_at: 5 } }) +
      f('response.in_progress', { response: { id: 'resp_9' } }) +
      f('response.output_item.added', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }) +
      f('response.reasoning_summary_text.delta', { item_id: 'rs_1', summary_index: 0, delta: 'A' }) +
      f('response.reasoning_summary_text.delta', { item_id: 'rs_1', summary_index: 1, delta: 'B' }) +
      f('response.output_item.done', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', encrypted_content: 'E1', summary: [] } }) +
      f('response.output_item.added', { output_index: 1, item: { id: 'msg_1', type: 'message', content: [] } }) +
      f('response.content_part.added', { item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'output_text', text: '' } }) +
      f('response.output_text.delta', { item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Hello' }) +
      f('response.output_item.done', { output_index: 1, item: { id: 'msg_1', type: 'message' } }) +
      f('response.output_item.added', { output_index: 2, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'exec', arguments: '' } }) +
      f('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 2, delta: '{"cmd":"ls"}' }) +
      f('response.output_item.done', { output_index: 2, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'exec', arguments: '{"cmd":"ls"}' } }) +
      f('response.completed', {
        response: { id: 'resp_9', status: 'completed', usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 800 }, output_tokens: 50, output_tokens_details: { reasoning_tokens: 20 } } },
      })
    const res = collect(decodeAll(openaiResponses, sse))
    expect(res).toEqual({
      id: 'resp_9',
      model: 'gpt-5',
      created: 5,
      parts: [
        { type: 'reasoning', text: 'A\n\nB', encrypted: 'E1', origin: 'openai-responses', id: 'rs_1' },
        { type: 'text', text: 'Hello' },
        { type: 'tool-call', id: 'call_1', name: 'exec', arguments: '{"cmd":"ls"}' },
      ],
      finish: { unified: 'tool_calls', raw: 'completed' },
      usage: { input: { noCache: 200, cacheRead: 800, cacheWrite: 0 }, output: { text: 30, reasoning: 20 } },
    })
    const tap = openaiResponses.createUsageTap()
    for (const e of parseSseText(sse)) tap.push(e)
    expect(tap.usage()).toEqual(res.usage)
  })
})
