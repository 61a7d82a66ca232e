import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'bun:test'
import { scanJson, scanWatch } from '../../../src/relay/body/json-scan'
import { agentBody } from '../../helpers/agent-body'

const bytes = (text: string) => new TextEncoder().encode(text)
const slice = (text: string, span: { start: number; end: number }) => new TextDecoder().decode(bytes(text).subarray(span.start, span.end))
const fixtures = () => {
  const dir = join(import.meta.dir, '../../fixtures/clients')
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')).body as Record<string, unknown>)
}

describe('structure', () => {
  test('valid objects pass, in any spacing, with every kind of value', () => {
    for (const text of ['{}', ' \n{ }\t', '{"a":[1,-2.5e+3,0,{"b":null}],"c":{"d":true,"e":false},"f":"x\\"y\\\\","g":""}', '{"é":"ü→😀"}', '{"a":[[],[[{}]]]}']) {
      expect(scanJson(bytes(text)).problem, text).toBeUndefined()
    }
  })

  test('what JSON.parse refuses outside strings is a problem, with where; so is any value but an object', () => {
    for (const text of ['[]', '"x"', '1', 'null']) expect(scanJson(bytes(text)).problem, text).toBe('expected a JSON object at byte 0')
    const bad = ['', ' ', '{', '{"a":1', '{"a":1} x', '{"a" 1}', '{"a":1,}', '{"a":}', '{a:1}', '{"a":01}', '{"a":tru}', '{"a":[1,]}', '{"a":[1 2]}', '{"a":1.}', '{"a":-}', '{"a":.5}', '{"a":1e}', '{"a":"x}', '{"a":"x\\"}', '{"a":1]', '{"a":[}', '{"a":1}}', '{,}', '{"a":1 "b":2}', '{"a":{"b":1}"c":2}', '{"a":nulls}', '{"a":+1}']
    for (const text of bad) {
      expect(() => JSON.parse(text), text).toThrow()
      expect(scanJson(bytes(text)).problem, text).toBeString()
    }
    expect(scanJson(bytes('{"a":1,}')).problem).toBe('expected a key at byte 7')
    expect(scanJson(bytes('{"a":"x')).problem).toBe('the body ends early (a string that does not end)')
  })

  test('differential: single-byte mutations of real bodies are refused exactly when JSON.parse refuses them (outside strings)', () => {
    let checked = 0
    for (const body of fixtures()) {
      const text = JSON.stringify(body)
      // every structural byte of the first 3 KB, replaced or deleted (string contents are the upstream's to check)
      const inString = stringMask(text)
      for (let i = 0; i < Math.min(text.length, 3000); i++) {
        if (inString[i]) continue
        for (const mutated of [text.slice(0, i) + text.slice(i + 1), text.slice(0, i) + ',' + text.slice(i + 1), text.slice(0, i) + '}' + text.slice(i + 1)]) {
          let valid = true
          try {
            const v = JSON.parse(mutated)
            valid = typeof v === 'object' && v !== null && !Array.isArray(v)
          } catch {
            valid = false
          }
          expect(scanJson(bytes(mutated)).problem === undefined, mutated.slice(Math.max(0, i - 20), i + 20)).toBe(valid)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(1000)
  })

  test('depth is how deep containers nest', () => {
    expect(scanJson(bytes('{"a":[[{"b":[]}]]}')).depth).toBe(5)
    expect(scanJson(bytes('{"a":' + '['.repeat(300) + ']'.repeat(300) + '}')).depth).toBe(301)
  })
})

describe('what the relay reads', () => {
  test('top-level members: each value span, the last of a repeated key, escaped keys decoded', () => {
    const text = '{ "model" : "gpt-4o" , "messages":[{"model":"inner"}], "n": 1.50, "m":1, "m":2, "k\\u0065y":{"a":"}"} }'
    const scan = scanJson(bytes(text))
    expect([...scan.members.keys()]).toEqual(['model', 'messages', 'n', 'm', 'key'])
    expect(slice(text, scan.members.get('model')!)).toBe('"gpt-4o"')
    expect(slice(text, scan.members.get('messages')!)).toBe('[{"model":"inner"}]')
    expect(slice(text, scan.members.get('n')!)).toBe('1.50')
    expect(slice(text, scan.members.get('m')!)).toBe('2')
    expect(slice(text, scan.members.get('key')!)).toBe('{"a":"}"}')
    expect(text[scan.open]).toBe('{')
  })

  test('objects of a watched type, wherever they are and whatever the key order', () => {
    const text = JSON.stringify({
      thinking: { type: 'enabled' },
      messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'a', signature: '' }, { signature: 's', thinking: 'b', type: 'thinking' }, { type: 'text', text: 'thinking' }] }],
    })
    const scan = scanJson(bytes(text), scanWatch({ types: ['thinking'] }))
    expect(scan.typed.get('thinking')!.map((s) => JSON.parse(slice(text, s)))).toEqual([
      { type: 'thinking', thinking: 'a', signature: '' },
      { signature: 's', thinking: 'b', type: 'thinking' },
    ])
  })

  test('counted words: keys and values equal to a word, not strings that contain it', () => {
    const text = JSON.stringify({ messages: [{ content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { type: 'text', text: 'an image_url' }] }] })
    expect(scanJson(bytes(text), scanWatch({ count: ['image_url', 'file'] })).counted).toBe(2)
  })

  test('a 1 MB agent body: members found, nothing watched for found, no problem', () => {
    const text = JSON.stringify(agentBody(1 << 20))
    const scan = scanJson(bytes(text), scanWatch({ types: ['thinking'], count: ['image', 'document'] }))
    expect(scan.problem).toBeUndefined()
    expect([...scan.members.keys()].sort()).toEqual(Object.keys(JSON.parse(text)).sort())
    expect(JSON.parse(slice(text, scan.members.get('max_tokens')!))).toBe(JSON.parse(text).max_tokens)
    expect(scan.counted).toBe(0)
  })
})

/** true at each index inside a string literal (its quotes included) */
function stringMask(text: string): boolean[] {
  const mask: boolean[] = []
  let inside = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inside) {
      mask[i] = true
      if (c === '\\') mask[++i] = true
      else if (c === '"') inside = false
    } else if (c === '"') {
      inside = true
      mask[i] = true
    } else mask[i] = false
  }
  return mask
}
