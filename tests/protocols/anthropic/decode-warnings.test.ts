import { describe, expect, test } from 'bun:test'
import { protocols } from '../../../src/protocols'

describe('anthropic decodeRequest: where each dropped block was', () => {
  test('warnings name the message, the block and a tool result\'s inner block', () => {
    const body = {
      model: 'claude',
      max_tokens: 16,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'mystery' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }, { type: 'odd' }, { type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'x' }, { type: 'audio' }, { type: 'image', source: { type: 'ftp' } }] },
            { type: 'document', source: { type: 'carrier-pigeon' } },
          ],
        },
      ],
    }
    const { warnings } = protocols.anthropic.decodeRequest(body, { checked: true })
    expect(warnings).toEqual([
      'messages[0].content[1]: user block type mystery dropped',
      'messages[1].content[1]: assistant block type odd dropped',
      'messages[2].content[0].content[1]: block type audio dropped',
      'messages[2].content[0].content[2]: image source type ftp is not supported, dropped',
      'messages[2].content[1]: document source type carrier-pigeon is not supported, dropped',
    ])
  })
})
