import { describe, expect, test } from 'bun:test'
import { imageTokens } from '../../src/metering/image-tokens'

const size = (width: number, height: number) => ({ width, height })

describe('an input image is reserved at what its vendor bills for its size', () => {
  test("OpenAI tiles (gpt-4o, gpt-4.1): the documented examples; detail low is the base; gpt-4o-mini 33× the tokens", () => {
    expect(imageTokens('gpt-4o', size(1024, 1024))).toBe(765)
    expect(imageTokens('gpt-4o-2024-08-06', size(2048, 4096))).toBe(1105)
    expect(imageTokens('openai/gpt-4.1', size(2048, 4096), 'low')).toBe(85)
    expect(imageTokens('gpt-4o-mini', size(2048, 4096))).toBe(2833 + 6 * 5667)
    expect(imageTokens('gpt-4o-mini', size(2048, 4096), 'low')).toBe(2833)
    expect(imageTokens('o3', size(1024, 1024))).toBe(75 + 4 * 150)
    expect(imageTokens('gpt-5', size(1024, 1024))).toBe(70 + 4 * 140)
  })

  test('OpenAI patches: 1800×2400 is 1,452 patches (the documented example), times the model multiplier', () => {
    expect(imageTokens('gpt-4.1-mini', size(1800, 2400))).toBe(Math.ceil(1452 * 1.62))
    expect(imageTokens('gpt-4.1-nano', size(1800, 2400))).toBe(Math.ceil(1452 * 2.46))
    expect(imageTokens('o4-mini', size(1800, 2400))).toBe(Math.ceil(1452 * 1.72))
    expect(imageTokens('gpt-5-mini-2025-08-07', size(1024, 1024))).toBe(Math.ceil(1024 * 1.62))
    expect(imageTokens('gpt-5.4', size(1600, 1600))).toBe(Math.ceil(2500 * 1.2))
    expect(imageTokens('gpt-5.4', size(4000, 4000), 'original')).toBeLessThanOrEqual(Math.ceil(10_240 * 1.2))
  })

  test('Claude: width × height / 750 after scaling the long edge; 4.7 and later read larger images', () => {
    expect(imageTokens('claude-sonnet-4-5', size(1000, 1000))).toBe(1334)
    expect(imageTokens('claude-3-5-sonnet-20240620', size(200, 200))).toBe(54)
    expect(imageTokens('claude-sonnet-4-5', size(8000, 8000))).toBe(1600)
    expect(imageTokens('claude-sonnet-4-20250514', size(8000, 8000))).toBe(1600)
    expect(imageTokens('claude-opus-4-7', size(2576, 1449))).toBe(4784)
    expect(imageTokens('us.anthropic.claude-opus-4-7', size(1000, 1000))).toBe(1334)
  })

  test('Gemini 2.x: 258 up to 384×384, else 258 per 768 px tile; Gemini 3 the highest media resolution', () => {
    expect(imageTokens('gemini-2.5-flash', size(384, 384))).toBe(258)
    expect(imageTokens('gemini-2.5-flash', size(600, 400))).toBe(258)
    expect(imageTokens('models/gemini-2.0-flash', size(1600, 800))).toBe(3 * 2 * 258)
    expect(imageTokens('gemini-3-pro-preview', size(600, 400))).toBe(2240)
  })

  test("size unknown: the family's worst case, never less than any size it could have", () => {
    const sizes = [size(1, 1), size(512, 512), size(768, 2048), size(1800, 2400), size(2048, 768), size(8000, 8000), size(1, 8000)]
    for (const model of ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1-mini', 'gpt-5', 'gpt-5.4', 'o3', 'claude-sonnet-4-5', 'claude-opus-4-7', 'gemini-2.5-pro', 'some-local-vlm']) {
      const worst = imageTokens(model, undefined)
      for (const s of sizes) expect(imageTokens(model, s)).toBeLessThanOrEqual(worst)
    }
    expect(imageTokens('gpt-4o-mini', undefined)).toBe(2833 + 8 * 5667)
    expect(imageTokens('some-local-vlm', undefined)).toBe(10_240)
  })
})
