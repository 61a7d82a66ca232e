/**
 * What one input image costs in tokens, per model family, from the vendors' documented formulas (issue #28).
 * A family's `models` are name prefixes (`$` at the end: the whole name), matched after a vendor prefix and a date
 * suffix are dropped; the first family that matches wins, so narrower prefixes come first. `worst` is reserved when the image's size is not
 * known (a URL, a format we do not parse): the most one image can cost in that family.
 *
 * Sources (checked 2026-11): OpenAI "Images and vision" (calculating costs), Anthropic "Vision" (evaluate image
 * size), Google "Understand and count tokens". Where OpenAI's page and its pricing calculator disagree (gpt-5-mini
 * 1.62 against 1.2, gpt-5-nano 2.46 against 1.5) the larger multiplier is taken: a reservation may be high,
 * never short.
 */
export type ImageRule =
  /** gpt-4o style: fit in `fit`², shortest side to `short`, then `base` + `perTile` per `tile`² tile; `detail: low` costs `low` */
  | { kind: 'tiles'; base: number; perTile: number; tile: number; fit: number; short: number; low: number }
  /** gpt-4.1-mini style: 32 px patches, scaled down to at most `maxPatches` (`original` with `detail: original`), times `multiplier` */
  | { kind: 'patches'; patch: number; maxPatches: number; original?: number; multiplier: number }
  /** Claude: scaled to at most `maxEdge` on the long side, then width × height / `pixelsPerToken`, at most `max` */
  | { kind: 'area'; pixelsPerToken: number; maxEdge: number; max: number }
  /** Gemini 2.x: `perTile` when both sides ≤ `small`, else per `tile`² tile, at most `max` */
  | { kind: 'gemini'; perTile: number; small: number; tile: number; max: number }
  /** a flat count whatever the size (Gemini 3's media resolution: the highest level) */
  | { kind: 'flat'; tokens: number }

export interface ImageFamily {
  models: string[]
  rule: ImageRule
}

const gpt4oTiles: ImageRule = { kind: 'tiles', base: 85, perTile: 170, tile: 512, fit: 2048, short: 768, low: 85 }
const patches = (multiplier: number, maxPatches = 1536, original?: number): ImageRule => ({ kind: 'patches', patch: 32, maxPatches, original, multiplier })

export const IMAGE_FAMILIES: ImageFamily[] = [
  // gpt-4o-mini bills an image at gpt-4o's dollar price: 33× the tokens of gpt-4o
  { models: ['gpt-4o-mini'], rule: { kind: 'tiles', base: 2833, perTile: 5667, tile: 512, fit: 2048, short: 768, low: 2833 } },
  { models: ['gpt-4.1-nano', 'gpt-5-nano', 'gpt-5.1-nano'], rule: patches(2.46) },
  { models: ['gpt-4.1-mini', 'gpt-5-mini', 'gpt-5.1-mini'], rule: patches(1.62) },
  { models: ['o4-mini', 'codex-mini'], rule: patches(1.72) },
  { models: ['gpt-5.4-nano', 'gpt-5.5-nano'], rule: patches(2.46, 2500) },
  { models: ['gpt-5.4-mini', 'gpt-5.5-mini'], rule: patches(1.62, 2500) },
  { models: ['gpt-5.1', 'gpt-5-chat', 'gpt-5$'], rule: { kind: 'tiles', base: 70, perTile: 140, tile: 512, fit: 2048, short: 768, low: 70 } },
  // gpt-5.2 and later: patches × 1.2, up to 2,500 (10,240 with `detail: original`)
  { models: ['gpt-5', 'gpt-6'], rule: patches(1.2, 2500, 10_240) },
  { models: ['o1', 'o3'], rule: { kind: 'tiles', base: 75, perTile: 150, tile: 512, fit: 2048, short: 768, low: 75 } },
  { models: ['gpt-4o', 'chatgpt-4o', 'gpt-4.1', 'gpt-4.5', 'gpt-4-turbo', 'gpt-4-vision'], rule: gpt4oTiles },
  // Claude up to 4.6: long edge ≤ 1568 px, about 1.15 megapixels, ~1,600 tokens
  {
    models: ['claude-3', 'claude-sonnet-4-0', 'claude-opus-4-0', 'claude-opus-4-1', 'claude-sonnet-4-5', 'claude-opus-4-5', 'claude-haiku-4-5', 'claude-sonnet-4-6', 'claude-opus-4-6', 'claude-sonnet-4$', 'claude-opus-4$'],
    rule: { kind: 'area', pixelsPerToken: 750, maxEdge: 1568, max: 1600 },
  },
  // Claude 4.7 and later read images at up to 2576 px on the long edge, 4,784 tokens
  { models: ['claude'], rule: { kind: 'area', pixelsPerToken: 750, maxEdge: 2576, max: 4784 } },
  { models: ['gemini-1', 'gemini-2', 'gemini-pro-vision'], rule: { kind: 'gemini', perTile: 258, small: 384, tile: 768, max: 258 * 16 } },
  { models: ['gemini', 'gemma'], rule: { kind: 'flat', tokens: 2240 } },
]

/** A model no family names: 32 px patches, one token each, up to 10,240 (the largest any listed vendor bills at 1×). */
export const DEFAULT_IMAGE_RULE: ImageRule = patches(1, 10_240)
