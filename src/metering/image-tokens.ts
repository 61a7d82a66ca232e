import type { ImageSize } from '../media/image-size'
import { DEFAULT_IMAGE_RULE, IMAGE_FAMILIES, type ImageRule } from './image-token-families'

/**
 * Tokens one input image is reserved at for `model`: the family's formula on the image's size when its header
 * gave it, else the family's worst case (image-token-families.ts). `detail` is OpenAI's (low/high/auto/original).
 */
export function imageTokens(model: string, size: ImageSize | undefined, detail?: string): number {
  const rule = imageRuleOf(model)
  if (rule.kind === 'tiles' && detail === 'low') return rule.low
  return size ? tokensFor(rule, size, detail) : worstCase(rule, detail)
}

const rules = new Map<string, ImageRule>()
const MAX_REMEMBERED = 1024

/** The family rule of a model (remembered: model names come from a closed set of channels, but bounded anyway). */
function imageRuleOf(model: string): ImageRule {
  const known = rules.get(model)
  if (known) return known
  const rule = findRule(model)
  if (rules.size < MAX_REMEMBERED) rules.set(model, rule)
  return rule
}

function findRule(model: string): ImageRule {
  const name = model
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/^(?:[a-z]{2}\.)?(?:anthropic|google|openai)\./, '')
    .replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '')
  for (const family of IMAGE_FAMILIES) {
    for (const prefix of family.models) {
      if (prefix.endsWith('$') ? name === prefix.slice(0, -1) : name.startsWith(prefix)) return family.rule
    }
  }
  return DEFAULT_IMAGE_RULE
}

function tokensFor(rule: ImageRule, size: ImageSize, detail?: string): number {
  switch (rule.kind) {
    case 'tiles':
      return tiled(rule, size)
    case 'patches':
      return Math.ceil(patchCount(size, rule.patch, patchCap(rule, detail)) * rule.multiplier)
    case 'area': {
      const scale = Math.min(1, rule.maxEdge / Math.max(size.width, size.height))
      return Math.min(rule.max, Math.ceil((size.width * scale * size.height * scale) / rule.pixelsPerToken))
    }
    case 'gemini': {
      if (size.width <= rule.small && size.height <= rule.small) return rule.perTile
      return Math.min(rule.max, Math.ceil(size.width / rule.tile) * Math.ceil(size.height / rule.tile) * rule.perTile)
    }
    case 'flat':
      return rule.tokens
  }
}

/** The most one image costs in the family, whatever its size. */
function worstCase(rule: ImageRule, detail?: string): number {
  switch (rule.kind) {
    case 'tiles': {
      // after fitting in fit² and the shortest side to `short`, the most tiles: short × fit (768 × 2048: 2 × 4)
      const across = Math.ceil(rule.short / rule.tile)
      const along = Math.ceil(rule.fit / rule.tile)
      return rule.base + rule.perTile * across * along
    }
    case 'patches':
      return Math.ceil(patchCap(rule, detail) * rule.multiplier)
    case 'area':
    case 'gemini':
      return rule.max
    case 'flat':
      return rule.tokens
  }
}

const patchCap = (rule: Extract<ImageRule, { kind: 'patches' }>, detail?: string) => (detail === 'original' && rule.original ? rule.original : rule.maxPatches)

/** gpt-4o's tiling: fit in fit × fit, then shortest side down to `short` (never up), count the tiles. */
function tiled(rule: Extract<ImageRule, { kind: 'tiles' }>, size: ImageSize): number {
  let { width, height } = size
  const fit = Math.min(1, rule.fit / Math.max(width, height))
  width *= fit
  height *= fit
  const short = Math.min(1, rule.short / Math.min(width, height))
  width *= short
  height *= short
  return rule.base + rule.perTile * Math.ceil(width / rule.tile) * Math.ceil(height / rule.tile)
}

/** 32 px patches covering the image, scaled down first when they would pass `cap` (OpenAI's documented steps). */
function patchCount(size: ImageSize, patch: number, cap: number): number {
  const { width, height } = size
  const raw = Math.ceil(width / patch) * Math.ceil(height / patch)
  if (raw <= cap) return raw
  let scale = Math.sqrt((cap * patch * patch) / (width * height))
  // shrink so whole patches fit along the width, as the documented example does
  scale *= Math.floor((width * scale) / patch) / ((width * scale) / patch)
  return Math.min(cap, Math.ceil((width * scale) / patch) * Math.ceil((height * scale) / patch))
}
