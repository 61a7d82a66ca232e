import { describe, expect, test } from 'bun:test'
import { validStringContents } from '../../../src/relay/body/json-string-check'

const encoder = new TextEncoder()
/** `content` (a JSON string's content, as raw text) between filler bytes, checked as one range */
const check = (content: string, pad = 'pp') => {
  const b = encoder.encode(`${pad}${content}zz`)
  return validStringContents(b, [encoder.encode(pad).length, b.length - 2])
}
const jsonValid = (content: string) => {
  try {
    JSON.parse(`"${content}"`)
    return true
  } catch {
    return false
  }
}

describe('valid JSON string content, as JSON.parse decides', () => {
  test('the escapes, control characters and truncations one by one', () => {
    const cases = [
      'plain', 'é 中 😀', '\\n\\t\\r\\b\\f\\/\\\\\\"', '\\u00e9\\u00E9\\uABCD', '\\ud83d\\ude00', '\\ud800', '\\\\u12G4', '\\\\\\\\x',
      '\u0001', 'a\tb', 'a\nb', '\u001f', '\\x', '\\u12G4', '\\u12', '\\u', '\\', 'a\\', '\\\\\\', '\\a', '\\0', '\\U0041',
    ]
    for (const content of cases) expect(check(content), JSON.stringify(content)).toBe(jsonValid(content))
  })

  test('random contents of every length around the 16-byte blocks, at every alignment', () => {
    let seed = 7
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n)
    const pieces = ['a', 'é', '😀', '\\n', '\\"', '\\\\', '\\u00e9', '\\u12G4', '\\x', '\u0001', '\\', 'u', '\t', 'abcdefghijklmnop', '\\/', '\\uABCD', '\\u12']
    let checked = 0
    for (let r = 0; r < 20_000; r++) {
      let content = ''
      for (let k = random(24); k > 0; k--) content += pieces[random(pieces.length)]
      if (/(^|[^\\])(\\\\)*"/.test(content)) continue // an unescaped quote would end the string earlier
      expect(check(content, 'p'.repeat(random(17))), JSON.stringify(content)).toBe(jsonValid(content))
      checked++
    }
    expect(checked).toBeGreaterThan(15_000)
  })

  test('each escape, good or bad, at every position of the 64-byte blocks and of the bytes after them', () => {
    const escapes = ['\\n', '\\\\', '\\\\\\"', '\\u00e9', '\\uABCD', '\\u12G4', '\\u12', '\\x', '\\', '\u0001', '\\\\\\\\\\\\\\', '\\\\\\\\\\\\x']
    for (const escape of escapes)
      for (let at = 0; at < 200; at++)
        for (const tail of [200 - at, 0]) {
          const content = 'a'.repeat(at) + escape + 'b'.repeat(tail)
          expect(check(content, 'p'.repeat(at % 7)), JSON.stringify([escape, at, tail])).toBe(jsonValid(content))
        }
  })

  test('a \\u escape cut by the range\'s end is bad though hex digits follow the range', () => {
    for (let at = 0; at < 200; at++) {
      const b = encoder.encode(`${'a'.repeat(at)}\\u1234`)
      expect(validStringContents(b, [0, b.length])).toBe(true)
      for (let cut = 1; cut <= 4; cut++) expect(validStringContents(b, [0, b.length - cut]), `${at} ${cut}`).toBe(false)
    }
  })

  test('random long contents: escapes and backslash runs across the 64-byte blocks', () => {
    let seed = 11
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n)
    const pieces = ['a', 'bcdefghijklmnopqrstuvwxyzABCDEFGHIJKL', 'é', '\\n', '\\"', '\\\\', '\\\\\\\\', '\\u00e9', '\\u12G4', '\\x', '\u0001', '\\', 'u', '\\/', '\\t']
    let checked = 0
    for (let r = 0; r < 5_000; r++) {
      let content = ''
      const bad = random(4) === 0 // else only pieces that keep it valid, so the long ones reach their last block
      for (let k = 10 + random(60); k > 0; k--) {
        const piece = pieces[random(pieces.length)]!
        if (bad || !['\\u12G4', '\\x', '\u0001', '\\'].includes(piece)) content += piece
      }
      if (/(^|[^\\])(\\\\)*"/.test(content)) continue
      expect(check(content, 'p'.repeat(random(64))), JSON.stringify(content)).toBe(jsonValid(content))
      checked++
    }
    expect(checked).toBeGreaterThan(4_000)
  })

  test('ranges longer than the module window are checked in pieces that never cut an escape', () => {
    const unit = 'abc\\n\\u00e9 def \\"x\\" \\\\ '
    const big = encoder.encode(unit.repeat(120_000)) // ~3 MB
    expect(validStringContents(big, [0, big.length])).toBe(true)
    const ranges = [0, 1_500_000, 1_500_000 + unit.length * 3, big.length].map((at) => at - (at % unit.length))
    expect(validStringContents(big, ranges)).toBe(true)
    const bad = encoder.encode(`${unit.repeat(120_000)}\\q${unit}`)
    expect(validStringContents(bad, [0, bad.length])).toBe(false)
    expect(validStringContents(bad, [0, big.length])).toBe(true) // the bad escape outside the range
  })
})
