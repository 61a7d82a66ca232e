import { BadRequestError } from '../errors'
import type { OptionStore } from '../options/store'
import type { Meter } from '../relay/meter'

type Options = Pick<OptionStore, 'get'>

/** What the client's price choices (relay/meter.ts, protocols' `priceChoices`) make of a request's price. */
export interface PriceTerms {
  /** the model's price times this: the service tier's and the betas' ratios */
  multiplier: number
  /** US$ added once per request: the hosted tools it offers, each priced per request in HostedToolPrice */
  feeUsd: number
  /** outputs the output allowance is reserved for (n, best_of, candidateCount; legacy completions × prompts) */
  outputs: number
}

/** Tiers that never cost more than the standard price (`auto` is the operator's own project setting). */
const STANDARD_TIERS = new Set(['default', 'auto', 'flex'])
/** `anthropic-beta` flags that change what the vendor bills: long-context prices, fast mode. */
const PRICED_BETAS = [/^context-1m-/, /^fast-mode-/]

/**
 * The policy for what a client may choose that multiplies its price, applied before any upstream sees the
 * request: every choice is either priced (reserved in the worst case, billed on settlement) or refused with a
 * 400 naming the field; none passes unpriced, so none can end as `unpaid`.
 */
export function priceTerms(options: Options, meter: Meter, free: boolean): PriceTerms {
  // a free model (self-use mode) bills nothing: its outputs are capped all the same
  if (free) return { multiplier: 1, feeUsd: 0, outputs: outputsOf(options, meter) }
  return { multiplier: tierRatio(options, meter.serviceTier) * betaRatio(options, meter.betas ?? []), feeUsd: toolFee(options, meter.hostedTools ?? []), outputs: outputsOf(options, meter) }
}

function outputsOf(options: Options, meter: Meter): number {
  const { choices } = meter
  const max = options.get<number>('MaxChoicesPerRequest')
  if (choices && choices.count > max) throw new BadRequestError(`${choices.field} is ${choices.count}, but this instance serves at most ${max} per request (MaxChoicesPerRequest)`, choices.field)
  return meter.outputs ?? choices?.count ?? 1
}

function tierRatio(options: Options, tier: string | undefined): number {
  if (tier === undefined) return 1
  const ratios = options.get<Record<string, number>>('ServiceTierRatio')
  if (Object.hasOwn(ratios, tier)) return ratios[tier]!
  if (STANDARD_TIERS.has(tier)) return 1
  throw new BadRequestError(`service_tier "${tier.slice(0, 40)}" is not served here: an administrator must price it in ServiceTierRatio (standard tiers: default, auto, flex)`, 'service_tier')
}

function betaRatio(options: Options, betas: string[]): number {
  const ratios = options.get<Record<string, number>>('AnthropicBetaRatio')
  let ratio = 1
  for (const beta of new Set(betas)) {
    if (Object.hasOwn(ratios, beta)) ratio *= ratios[beta]!
    else if (PRICED_BETAS.some((pattern) => pattern.test(beta))) {
      throw new BadRequestError(`anthropic-beta "${beta.slice(0, 60)}" changes the vendor's price and is not served here: an administrator must price it in AnthropicBetaRatio`, 'anthropic-beta')
    }
  }
  return ratio
}

function toolFee(options: Options, tools: NonNullable<Meter['hostedTools']>): number {
  const prices = options.get<Record<string, number>>('HostedToolPrice')
  let fee = 0
  const seen = new Set<string>()
  for (const { kind, field } of tools) {
    if (seen.has(kind)) continue
    seen.add(kind)
    if (!Object.hasOwn(prices, kind)) {
      throw new BadRequestError(`${field}: the ${kind.slice(0, 60)} tool is billed per use by the vendor and is not served here: an administrator must price it in HostedToolPrice`, field)
    }
    fee += prices[kind]!
  }
  return fee
}
