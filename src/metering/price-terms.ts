import { BadRequestError } from '../errors'
import type { OptionStore } from '../options/store'
import type { PriceChoices } from '../protocols/types'
import type { Meter } from '../relay/meter/meter'

type Options = Pick<OptionStore, 'get'>

/** What the client's price choices (relay/meter/meter/meter.ts, protocols' `priceChoices`) make of a request's price. */
export interface PriceTerms {
  /** the model's price times this: the service tier's and the betas' ratios */
  multiplier: number
  /** US$ added once per request: the hosted tools it offers, each priced per request in HostedToolPrice */
  feeUsd: number
  /** outputs the output allowance is reserved for (n, best_of, candidateCount; legacy completions × prompts) */
  outputs: number
  /** the choices no option prices: the relay takes them out of the request before dispatch */
  declined?: PriceChoices
}

/** Tiers that never cost more than the standard price (`auto` is the operator's own project setting). */
const STANDARD_TIERS = new Set(['default', 'auto', 'flex'])
/** `anthropic-beta` flags that change what the vendor bills: long-context prices, fast mode. */
const PRICED_BETAS = [/^context-1m-/, /^fast-mode-/]

/**
 * The policy for what a client may choose that multiplies its price, applied before any upstream sees the
 * request: more outputs are reserved in the worst case (above MaxChoicesPerRequest: a 400 naming the field); a
 * service tier, hosted tool or beta an option prices is reserved and billed at that price; one no option prices is
 * declined, and the relay sends the request without it. None of these choices passes unpriced, so none can end as
 * `unpaid`; a request without an output cap and input sent by reference are bounded in reserve.ts (output-cap.ts,
 * model-limits.ts); what is left is in docs/security.md's known gaps.
 */
export function priceTerms(options: Options, meter: Meter, free: boolean): PriceTerms {
  const outputs = outputsOf(options, meter)
  // a free model (self-use mode) bills nothing: its outputs are capped all the same; a request that chose none of
  // these (most) is priced as listed without the lookups below
  const task = taskRatio(meter)
  if (free || (meter.serviceTier === undefined && !meter.betas?.length && !meter.hostedTools?.length)) return { multiplier: task, feeUsd: 0, outputs }
  const declined: PriceChoices = {}
  const tier = tierRatio(options, meter.serviceTier)
  if (tier === undefined) declined.serviceTier = meter.serviceTier
  const betas = betaRatio(options, meter.betas ?? [])
  if (betas.declined.length) declined.betas = betas.declined
  const tools = toolFee(options, meter.hostedTools ?? [])
  if (tools.declined.length) declined.hostedTools = tools.declined
  const terms: PriceTerms = { multiplier: (tier ?? 1) * betas.ratio * task, feeUsd: tools.fee, outputs }
  if (Object.keys(declined).length) terms.declined = declined
  return terms
}

/** The product of a task's ratios (a video's seconds × size), 1 for a request that has none. */
export function taskRatio(meter: Pick<Meter, 'ratios'>): number {
  let product = 1
  for (const ratio of Object.values(meter.ratios ?? {})) product *= ratio
  return product
}

function outputsOf(options: Options, meter: Meter): number {
  const { choices } = meter
  const max = options.get<number>('MaxChoicesPerRequest')
  if (choices && choices.count > max) throw new BadRequestError(`${choices.field} is ${choices.count}, but this instance serves at most ${max} per request (MaxChoicesPerRequest)`, choices.field)
  return meter.outputs ?? choices?.count ?? 1
}

/** The tier's multiple: ServiceTierRatio's, 1 for a standard tier, undefined for one no option prices. */
function tierRatio(options: Options, tier: string | undefined): number | undefined {
  if (tier === undefined) return 1
  const ratios = options.get<Record<string, number>>('ServiceTierRatio')
  if (Object.hasOwn(ratios, tier)) return ratios[tier]!
  return STANDARD_TIERS.has(tier) ? 1 : undefined
}

function betaRatio(options: Options, betas: string[]): { ratio: number; declined: string[] } {
  const ratios = options.get<Record<string, number>>('AnthropicBetaRatio')
  let ratio = 1
  const declined: string[] = []
  for (const beta of new Set(betas)) {
    if (Object.hasOwn(ratios, beta)) ratio *= ratios[beta]!
    else if (PRICED_BETAS.some((pattern) => pattern.test(beta))) declined.push(beta)
  }
  return { ratio, declined }
}

/** US$ once per request for each kind of hosted tool it offers that HostedToolPrice prices; the others declined. */
function toolFee(options: Options, tools: NonNullable<Meter['hostedTools']>): { fee: number; declined: NonNullable<Meter['hostedTools']> } {
  const prices = options.get<Record<string, number>>('HostedToolPrice')
  let fee = 0
  const priced = new Set<string>()
  const declined: NonNullable<Meter['hostedTools']> = []
  for (const tool of tools) {
    if (!Object.hasOwn(prices, tool.kind)) declined.push(tool)
    else if (!priced.has(tool.kind)) {
      priced.add(tool.kind)
      fee += prices[tool.kind]!
    }
  }
  return { fee, declined }
}
