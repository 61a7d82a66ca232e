import { admit, limitError, type Coordination } from '../coord'
import type { Repos } from '../db/repos'
import type { ReserveResult } from '../db/repos/quota'
import { ForbiddenError } from '../errors'
import type { CacheWrites } from '../ir'
import type { OptionStore } from '../options/store'
import type { Meter } from '../relay/meter/meter'
import type { RelayCall } from '../relay/types'
import { limitsFor } from './limits'
import { priceTerms } from './price-terms'
import { contextOf } from './model-limits'
import { affordableOutput, outputPlan } from './output-cap'
import { estimateQuota, requirePrice, type Price } from './prices'
import { fundingFor, type PlanDebtor, type PlanHold } from '../subscriptions/funding'

/** What a request holds between the reservation and its settlement. */
export interface Reservation {
  price: Price
  group: string
  /** the model the request was priced for */
  model: string
  /** what was metered: tokens, or characters / seconds / images for the operations billed so */
  unit: Meter['unit']
  /** the exact input count, when promptTokens is a bound */
  count(): number
  /** call and await (when it returns a promise) before `count` after dispatch: the body may be released meanwhile */
  countable?(): Promise<void> | undefined
  /** prompt tokens by the tokenizer (or the operation's quantity), or for a long prompt an upper bound (see estimateRequestTokens) */
  promptTokens: number
  /** false when promptTokens is the upper bound: settlement tokenizes the prompt if it needs an estimate */
  promptExact: boolean
  /** the output allowance of every output the request asked for (n × max_tokens) */
  maxOutputTokens: number
  /** quota added to the usage's price once the request delivered: its hosted tools (HostedToolPrice) */
  fee: number
  /** quota taken from the user (and the token, when limited) */
  reserved: number
  /** the database's record of the reservation, where it keeps one (PostgreSQL); settlement ends it */
  hold?: number
  /** a running reservation's first size, what it is topped up by again as it runs (metering/top-up.ts) */
  stretch?: number
  /** the held plan that pays for the request, when one does (the wallet is untouched then) */
  plan?: PlanHold
  /** the wallet pays, and this covering plan answers for what the wallet cannot at settlement */
  debtor?: PlanDebtor
  tokenLimited: boolean
  quotaPerUnit: number
  /** give back the rate limits' hold: the concurrency slot, and the TPM estimate minus the tokens used */
  release: (usedTokens: number) => void
  settled: boolean
}

export interface ReserveDeps {
  options: Pick<OptionStore, 'get'>
  repos: Pick<Repos, 'quota'> & Partial<Pick<Repos, 'subscriptions'>>
  coord: Coordination
  /** wall-clock milliseconds (AppDeps' clock): a plan's period and end are read from it */
  clock?: { now(): number }
  /** Commit the settlements waiting for the next log batch (their refunds), so a refusal is never for want of them. */
  settlePending?: () => Promise<unknown>
}

/**
 * Before the first upstream attempt: price the model (refused without a price), apply the rate limits,
 * and reserve the most the request can cost from the token and the user, both or neither.
 */
export async function reserve(deps: ReserveDeps, meter: Meter, input: RelayCall, group: string): Promise<Reservation> {
  const { token, user } = input
  const listed = requirePrice(deps.options, meter.model, group, meter.unit === 'image' ? meter.variant : undefined)
  // the client's choices (n, service tier, betas, hosted tools) are priced, capped or declined here, before any limit is taken
  const terms = priceTerms(deps.options, meter, listed.mode === 'free')
  meter.declined = terms.declined
  const price = terms.multiplier === 1 ? listed : { ...listed, multiplier: terms.multiplier }
  const quotaPerUnit = deps.options.get<number>('QuotaPerUnit')
  const fee = Math.round(terms.feeUsd * quotaPerUnit * price.group)
  const { outputs } = terms
  const plan = outputPlan(deps.options, meter, price)
  let perOutput = plan.perOutput
  // input the body names but does not hold (a stored conversation, a file, a URL) may fill the context window
  const floor = meter.byReference?.length ? contextOf(deps.options, meter.model, meter.betas) : 0
  const bound = Math.max(meter.input, floor)
  let promptTokens = bound
  let counted = meter.exact || bound === floor
  const limits = limitsFor(deps.options, group)
  const scopes = [
    { key: `t:${token.id}`, label: 'API key', limits: limits.token },
    { key: `u:${user.id}`, label: 'user', limits: limits.user },
  ]
  // TPM counts tokens (a meter in characters, seconds or images takes none); a request without a cap counts what it did
  // before caps were sent (DefaultMaxOutputTokens), not the model's whole maximum
  const tpmOutput = meter.maxOutput === undefined ? Math.min(perOutput, deps.options.get<number>('DefaultMaxOutputTokens')) : perOutput
  const tpmEstimate = () => (meter.unit === 'token' ? promptTokens + tpmOutput * outputs : 0)
  const recount = () => {
    promptTokens = Math.max(meter.count(), floor)
    counted = true
  }
  let admitted = admit(deps.coord, scopes, tpmEstimate())
  // only a shared backend answers later: on one node the admission is synchronous, no await added
  if (admitted instanceof Promise) admitted = await admitted
  if (!admitted.ok && admitted.kind === 'tpm' && !counted) {
    // the bound does not fit the tokens per minute left: count exactly before refusing (a refusal takes nothing)
    recount()
    admitted = admit(deps.coord, scopes, tpmEstimate())
    if (admitted instanceof Promise) admitted = await admitted
  }
  if (!admitted.ok) throw limitError(admitted)
  const permit = admitted.permit
  const release = (usedTokens: number): void => void permit.release(usedTokens)
  const writes = cacheWritesOf(meter, price)
  const estimate = () => estimateQuota(price, promptTokens, perOutput * outputs, quotaPerUnit, writes, meter.audio) + fee
  let amount = estimate()
  const tokenLimited = !token.unlimitedQuota
  let hold: number | undefined
  let planHold: PlanHold | undefined
  let debtor: PlanDebtor | undefined
  if (amount > 0) {
    let result
    try {
      const clock = deps.clock ?? Date
      const pending = fundingFor(
        { quota: deps.repos.quota, subscriptions: deps.repos.subscriptions, now: () => Math.floor(clock.now() / 1000) },
        { userId: user.id, tokenId: token.id, tokenLimited, model: meter.model, group },
      )
      // no await for a user known to hold no plan: the wallet pays, as the plan lookup would decide
      const funding = pending instanceof Promise ? await pending : pending
      const fund = funding.fund
      result = await fund(amount)
      if (!result.ok && deps.settlePending && deps.repos.quota.hasPending()) {
        // refunds of requests that just ended may still wait for their batch (PostgreSQL): write them, ask again
        await deps.settlePending()
        result = await fund(amount)
      }
      if (!result.ok && !counted) {
        // The byte bound (about 3.5× a real prompt's tokens) does not fit: count exactly before refusing, so a
        // request the balance can pay is served and a refusal names the real estimate, not the bound.
        recount()
        amount = estimate()
        result = await fund(amount)
      }
      // A request without a cap is sent with the cap the balance buys (as OpenRouter limits output by credits), not
      // refused, unless that is under the minimum. Twice at most: the balance may move between the two questions.
      // Bought beside the prompt's bound, not our count of it: the vendor's tokenizer may count a few more, and the
      // balance left after this reservation is too little to pay for them.
      if (!result.ok && plan.injects) {
        promptTokens = bound
        counted = meter.exact || bound === floor
      }
      for (let tries = 0; !result.ok && plan.injects && tries < 2; tries++) {
        const bought = Math.floor(affordableOutput(price, promptTokens, fee, budgetOf(result, tokenLimited), quotaPerUnit, writes) / outputs)
        if (bought < plan.minimum) {
          perOutput = plan.minimum // the refusal names the least this request could have cost
          amount = estimate()
          break
        }
        perOutput = Math.min(perOutput, bought)
        amount = estimate()
        result = await fund(amount)
      }
    } catch (error) {
      release(0) // the database failed: the rate limits' slots go back with the request
      throw error
    }
    if (!result.ok) {
      release(0)
      const why: string[] = []
      if (plan.injects) why.push(`no output cap was set, and fewer than ${plan.minimum} output tokens${outputs > 1 ? ' per output' : ''} are not served (MinOutputTokens)`)
      if (floor) why.push(`input sent by reference (${meter.byReference!.join(', ')}) is reserved as the model's context window, ${floor} tokens`)
      throw insufficient(amount, quotaPerUnit, result.userQuota ?? 0, result.tokenRemain, why)
    }
    hold = result.hold
    planHold = result.plan
    debtor = result.debtor
  }
  if (plan.injects) {
    meter.outputCap = perOutput
    const why = perOutput < plan.perOutput ? `what the balance buys (the model's maximum is ${plan.perOutput})` : "the model's maximum output (ModelMaxOutputTokens)"
    meter.notes = [`no output cap was set: sent with one of ${perOutput} tokens${outputs > 1 ? ' per output' : ''}, ${why}`]
  }
  if (floor) meter.notes = [...(meter.notes ?? []), `input sent by reference (${meter.byReference!.join(', ')}): reserved as the model's context window, ${floor} tokens`]
  const promptExact = counted && !floor
  return { price, group, model: meter.model, unit: meter.unit, count: meter.count, countable: meter.countable, promptTokens, promptExact, maxOutputTokens: perOutput * outputs, fee, reserved: amount, hold, plan: planHold, debtor, tokenLimited, quotaPerUnit, release, settled: false }
}

/**
 * Whether the prompt may be billed as a cache write: the body asks for one, or the model's cache writes are priced
 * above its input (CreateCacheRatio) and it is not one that writes only on request (Claude): a vendor that caches by
 * itself bills the write without being asked.
 */
function cacheWritesOf(meter: Meter, price: Price): CacheWrites | undefined {
  if (meter.cacheWrites) return meter.cacheWrites
  return price.mode === 'ratio' && price.cacheWrite > 1 && !/claude/i.test(meter.model) ? '5m' : undefined
}

/** What the user's balance, and a limited key's remaining quota, hold now (a refusal's answer). */
function budgetOf(result: ReserveResult, tokenLimited: boolean): number {
  const user = result.userQuota ?? 0
  return tokenLimited && result.tokenRemain !== undefined ? Math.min(user, result.tokenRemain) : user
}

function insufficient(amount: number, quotaPerUnit: number, userQuota: number, tokenRemain: number | undefined, why: string[]): ForbiddenError {
  const usd = (q: number) => `$${(q / quotaPerUnit).toFixed(6)}`
  const short = tokenRemain !== undefined && tokenRemain < amount ? `this API key has ${tokenRemain} left (${usd(tokenRemain)})` : `the balance is ${userQuota} (${usd(userQuota)})`
  const because = why.length ? ` (${why.join('; ')})` : ''
  return new ForbiddenError(`insufficient quota: this request may cost up to ${amount} (${usd(amount)})${because}, but ${short}`, 'insufficient_quota')
}
