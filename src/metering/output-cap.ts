import type { CacheWrites } from '../ir'
import type { OptionStore } from '../options/store'
import type { Meter } from '../relay/meter/meter'
import { maxOutputOf } from './model-limits'
import { estimateQuota, type Price } from './prices'
import { worstTier } from './tiers'

type Options = Pick<OptionStore, 'get'>

/** How many output tokens a request is reserved (and, when it set no cap, sent) with. */
export interface OutputPlan {
  /** tokens of one output: the client's cap, or the model's maximum output */
  perOutput: number
  /** the client set no cap and output is priced: the relay sends `perOutput` as its cap, which the balance may lower */
  injects: boolean
  /** the fewest tokens per output a lowered cap may have (MinOutputTokens, or the whole allowance when smaller) */
  minimum: number
}

/**
 * The policy for a request without an output cap (chat without max_tokens/max_completion_tokens, Responses without
 * max_output_tokens, Gemini without maxOutputTokens, legacy completions without max_tokens): a model writes up to
 * its own maximum then, which no reservation of a default covers. So when output is priced, the request is sent
 * with a cap, the model's maximum output (ModelMaxOutputTokens, the shipped families, else DefaultMaxOutputTokens),
 * lowered to what the balance buys (reserve.ts); it is refused only when that is below MinOutputTokens. A cap the
 * client set is its own choice: reserved in full, or refused. A free or per-call price is not changed by output:
 * nothing is injected there.
 */
export function outputPlan(options: Options, meter: Meter, price: Price): OutputPlan {
  if (meter.maxOutput !== undefined) return { perOutput: meter.maxOutput, injects: false, minimum: meter.maxOutput }
  const perOutput = maxOutputOf(options, meter.model)
  const injects = meter.unit === 'token' && outputCost(worstTier(price, Number.MAX_SAFE_INTEGER)) > 0
  return { perOutput, injects, minimum: Math.min(perOutput, options.get<number>('MinOutputTokens')) }
}

/** Quota one output token costs (0: output is not what the price depends on). */
function outputCost(price: Price): number {
  return price.mode === 'ratio' ? price.ratio * price.completion * price.group * (price.multiplier ?? 1) : 0
}

/** The most output tokens, all outputs together, that `budget` buys beside the prompt and the fee. */
export function affordableOutput(listed: Price, promptTokens: number, fee: number, budget: number, quotaPerUnit: number, writes?: CacheWrites): number {
  const price = worstTier(listed, promptTokens) // output bought at the dearest tier the prompt can reach
  const perToken = outputCost(price)
  if (perToken <= 0) return 0
  const left = budget - fee - estimateQuota(price, promptTokens, 0, quotaPerUnit, writes)
  if (left <= 0) return 0
  let tokens = Math.floor(left / perToken)
  // the quota is rounded: step down until the estimate fits (a token or two, at most a few steps)
  const step = Math.max(1, Math.ceil(1 / perToken))
  for (let i = 0; i < 16 && tokens > 0 && estimateQuota(price, promptTokens, tokens, quotaPerUnit, writes) + fee > budget; i++) tokens -= step
  return Math.max(0, tokens)
}
