import { joinedPieces } from '../../../src/relay/body/pieces'
import { describe, expect, test } from 'bun:test'
import { scanJson, scanWatch } from '../../../src/relay/body/json-scan'
import { scannedBody, standInsOf, STAND_IN_BYTES, wholeBody } from '../../../src/relay/body/request-body'

const watch = scanWatch({ types: ['thinking'], count: ['image'] })
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
const both = (value: Record<string, unknown>) => {
  const b = bytes(value)
  return [wholeBody(b, value, watch), scannedBody(b, scanJson(b, watch))] as const
}

const turn = {
  model: 'claude-sonnet-4-5',
  thinking: { type: 'enabled', budget_tokens: 1024 },
  system: [{ type: 'text', text: 'x'.repeat(STAND_IN_BYTES + 10) }],
  messages: [
    { role: 'user', content: 'say "thinking" and {"type":"thinking"}' },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 'sig' }, { type: 'thinking', thinking: 'no sig', signature: '' }, { type: 'image', source: {} }] },
  ],
  max_tokens: 2048,
}

describe('a body parsed whole and the same body scanned agree', () => {
  test('objects of a type, with only the keys asked for; a key or a quoted text is not one', () => {
    for (const body of both(turn)) {
      expect(body.objectsOfType('thinking', ['signature'])).toEqual([{ signature: 'sig' }, { signature: '' }])
    }
    const [whole] = both({ thinking: { type: 'enabled' }, messages: [{ role: 'user', content: 'thinking' }] })
    expect(whole.objectsOfType('thinking', ['signature'])).toEqual([])
  })

  test('patched: the member replaced, the other bytes as they were', () => {
    for (const body of both(turn)) {
      const out = new TextDecoder().decode(joinedPieces(body.patched({ model: 'mapped', stream: true })!))
      expect(JSON.parse(out)).toEqual({ stream: true, ...turn, model: 'mapped' })
    }
  })

  test('parsed() is the whole body; the view of a scanned one has stand-ins for values over STAND_IN_BYTES', () => {
    const [whole, scanned] = both(turn)
    expect(whole.parsed()).toBe(turn)
    expect(scanned.parsed()).toEqual(turn)
    expect(scanned.whole).toBe(false)
    expect(scanned.view).toEqual({ ...turn, system: [] })
    expect([...standInsOf(scanned.view)!]).toEqual(['system'])
    expect(standInsOf(whole.view)).toBeUndefined()
    expect(scanned.mediaWords()).toBe(1)
  })

  test('member(): one top-level value, a stand-in parsed from its bytes without parsing the rest', () => {
    for (const body of both(turn)) {
      expect(body.member('system')).toEqual(turn.system)
      expect(body.member('max_tokens')).toBe(2048)
      expect(body.member('absent')).toBeUndefined()
    }
    const [, scanned] = both(turn)
    scanned.member('system')
    expect(scanned.view.system).toEqual([]) // the view keeps its stand-in: nothing else was parsed into it
  })

  test('member(): a key spelled with escapes is the key it decodes to, as JSON.parse reads it', () => {
    const raw = `{"\u006e":128,"system":${JSON.stringify(turn.system)}}`
    const b = new TextEncoder().encode(raw)
    expect(scannedBody(b, scanJson(b, watch)).member('n')).toBe(128)
  })
})
