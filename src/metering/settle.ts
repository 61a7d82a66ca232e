import type { Repos } from '../db/repos'
import { LogType, type NewLog } from '../db/repos/logs'
import { emptyUsage, inputTokens, outputTokens, totalTokens, type Usage } from '../ir'
import type { OptionStore } from '../options/store'
import type { RelayOutcome } from '../relay/types'
import { countTextTokens } from '../relay/meter/tokenize'
import type { LogWriter } from './log-writer'
import { quotaFor } from './prices'
import { atTier, tierNote } from './tiers'
import type { Reservation } from './reserve'
import { spendPeriod } from '../subscriptions/period'
import type { PlanDebtor } from '../subscriptions/funding'

export interface SettleDeps {
  options: Pick<OptionStore, 'get'>
  repos: Pick<Repos, 'quota'> & Partial<Pick<Repos, 'subscriptions'>>
  logs: Pick<LogWriter, 'push'>
  /** wall-clock milliseconds (AppDeps' clock, as reserve reads it): the period a plan's debt goes into */
  clock?: { now(): number }
  /** after a charge, with the user's balance it left (notifications: src/notify); must not throw or wait */
  onCharged?: (userId: number, charged: number, quotaAfter: number) => void
}

/** What a settled request was billed (the operations log line and metrics read it). */
export interface Settled {
  inputTokens: number
  outputTokens: number
  /** quota actually taken from the balances */
  quota: number
}

/**
 * After a request: bill what the client received, refund the rest of the reservation, count usage, and
 * queue the log row. A request that never delivered a byte costs nothing. Runs once per reservation (marked
 * before the first await, so a second call for the same request does nothing).
 */
export async function settle(deps: SettleDeps, outcome: RelayOutcome): Promise<Settled | undefined> {
  const r = outcome.reservation as Reservation | undefined
  if (!r || r.settled) return undefined
  r.settled = true
  const { input } = outcome
  const delivered = outcome.ok || outcome.firstByteAt !== undefined
  const billed = delivered ? billedUsage(outcome, r.unit, countsPrompt(outcome, r.unit) ? await promptTokens(r) : undefined) : { usage: emptyUsage(), estimated: false }
  const actual = delivered ? quotaFor(r.price, billed.usage, r.quotaPerUnit) + r.fee : 0
  const now = Math.floor(Date.now() / 1000)
  let charged: number
  let userAfter: number | undefined
  let debt: { debtor?: PlanDebtor; debt: number } = { debt: 0 }
  try {
    let debtor: PlanDebtor | undefined
    let beyond: number
    ;({ charged, userAfter, debtor, debt: beyond } = await chargeSources(deps, r, { userId: input.user.id, tokenId: input.token.id, requestId: input.requestId }, delivered ? outcome.channelId : 0, actual, now))
    debt = { debtor, debt: beyond }
  } finally {
    // the rate limits' slots and unused TPM go back whether or not the database took the settlement
    r.release(delivered ? totalTokens(billed.usage) : 0)
  }
  if (userAfter !== undefined) deps.onCharged?.(input.user.id, charged, userAfter)
  const result = { inputTokens: inputTokens(billed.usage), outputTokens: outputTokens(billed.usage), quota: charged }
  if (!deps.options.get<boolean>('LogConsumeEnabled')) return result
  deps.logs.push(logRow(outcome, r, billed, delivered, actual, charged, now, debt))
  return result
}

/**
 * Take `actual` from what holds the reservation: a plan's period as far as it can still give, then the wallet when the
 * preference lets it pay (as far as it reaches), and what is still short from the covering plan the preference names
 * (`debtor`), beyond its quota if need be: a debt its next period starts with. Without such a plan, the rest is unpaid.
 */
async function chargeSources(deps: SettleDeps, r: Reservation, who: { userId: number; tokenId: number; requestId: string }, channelId: number, actual: number, now: number) {
  const subscriptions = deps.repos.subscriptions
  const plan = r.plan && subscriptions ? r.plan : undefined
  let planCharge = 0
  if (plan) {
    const settled = await subscriptions!.settle(plan.subscriptionId, plan.periodStart, r.reserved, actual, plan.hold)
    planCharge = settled.charged
    // a take a sweep gave back gave the key's hold back too: the key is charged as far as it reaches
    await deps.repos.quota.settleElsewhere({ ...who, tokenHeld: settled.swept ? 0 : plan.tokenHeld, tokenLimited: r.tokenLimited, channelId, charged: planCharge, now })
  }
  const debtor = subscriptions ? (plan ? plan.debtor : r.debtor) : undefined
  const rest = plan ? (plan.walletAfter ? actual - planCharge : 0) : actual
  const { charged: walletCharge, user } = await deps.repos.quota.settle({
    ...who,
    tokenLimited: r.tokenLimited && (plan ? rest > 0 : r.reserved > 0),
    channelId,
    reserved: plan ? 0 : r.reserved,
    actual: rest,
    now,
    hold: r.hold,
    // the plan takes what the wallet leaves: the database may not take more than it answers now
    capAtAnswer: debtor !== undefined,
  })
  let charged = planCharge + walletCharge
  const short = debtor ? actual - charged : 0
  let debt = 0
  if (short > 0) {
    const at = Math.floor((deps.clock ?? Date).now() / 1000)
    debt = await subscriptions!.overdraw(debtor!.subscriptionId, short, spendPeriod(debtor!.quotaResetPeriod, debtor!.quotaResetCustomSeconds, debtor!.startTime, at))
    await deps.repos.quota.settleElsewhere({ ...who, tokenHeld: 0, tokenLimited: r.tokenLimited, channelId, charged: short, now })
    charged += short
  }
  // the wallet's balance crossing is told when the wallet paid a part
  return { charged, debtor: short > 0 ? debtor : undefined, debt, userAfter: !plan || rest > 0 ? user?.quota : undefined }
}

/**
 * The usage to bill. A finished request: what the upstream reported. A stream that was cut (client gone
 * or upstream broke): never less output than the text the client got. Nothing reported: the prompt
 * estimate plus the tokens of the produced text. `prompt` is given exactly when `countsPrompt` says so.
 */
function billedUsage(outcome: RelayOutcome, unit: Reservation['unit'], prompt: number | undefined): { usage: Usage; estimated: boolean } {
  const { reported, complete } = reportOf(outcome, unit)
  if (reported && complete) return { usage: reported, estimated: false }
  const producedTokens = countTextTokens(outcome.output ?? '')
  if (!reported) {
    return { usage: { input: { noCache: prompt!, cacheRead: 0, cacheWrite: 0 }, output: { text: producedTokens, reasoning: 0 } }, estimated: true }
  }
  const usage: Usage = { input: { ...reported.input }, output: { ...reported.output }, ...(reported.audio && { audio: { ...reported.audio } }) }
  if (prompt !== undefined) usage.input.noCache = prompt // no input reported
  if (outputTokens(usage) < producedTokens) usage.output.text = producedTokens - usage.output.reasoning
  return { usage, estimated: prompt !== undefined || outputTokens(reported) < producedTokens }
}

/** The prompt's tokens: counted now when the reservation held a bound (the body read back first if it was let go of). */
async function promptTokens(r: Reservation): Promise<number> {
  if (r.promptExact) return r.promptTokens
  const reading = r.countable?.() // a body sent as a shared Blob was let go of while the upstream answered
  if (reading) await reading
  return r.count()
}

function reportOf(outcome: RelayOutcome, unit: Reservation['unit']): { reported: Usage | undefined; complete: boolean } {
  // images are counted, never estimated: none counted (a stream cut before its first image completed) is none made
  const counted = outcome.usage !== undefined && unit === 'image'
  const reported = outcome.usage && (counted || totalTokens(outcome.usage) > 0) ? outcome.usage : undefined
  return { reported, complete: outcome.ok && !outcome.aborted }
}

/** Whether the bill needs the prompt's tokens: nothing reported, or a cut request that reported no input. */
function countsPrompt(outcome: RelayOutcome, unit: Reservation['unit']): boolean {
  const { reported, complete } = reportOf(outcome, unit)
  return !reported || (!complete && inputTokens(reported) === 0 && unit !== 'image')
}

function logRow(
  outcome: RelayOutcome,
  r: Reservation,
  billed: { usage: Usage; estimated: boolean },
  delivered: boolean,
  actual: number,
  charged: number,
  now: number,
  debt: { debtor?: PlanDebtor; debt: number },
): NewLog {
  const { input, usage } = { input: outcome.input, usage: billed.usage }
  const other: Record<string, unknown> = {
    attempts: outcome.attempts,
    // a tiered price: the tier billed, and which (new-api's tier_* fields)
    price: atTier(r.price, inputTokens(usage)),
    reserved: r.reserved,
  }
  const tier = tierNote(r.price, inputTokens(usage))
  if (tier) Object.assign(other, tier)
  if (r.fee) other.fee = r.fee
  if (r.plan) other.subscription_id = r.plan.subscriptionId
  // the plan took what neither its reservation nor the wallet could; the part beyond its quota is its debt
  if (debt.debtor) other.subscription_id = debt.debtor.subscriptionId
  if (debt.debt > 0) other.plan_debt = debt.debt
  if (billed.estimated) other.estimated = true
  if (outcome.aborted) other.aborted = true
  if (actual !== charged) other.unpaid = actual - charged
  if (outcome.error) other.error = outcome.error
  if (outcome.warnings.length) other.warnings = outcome.warnings
  if (outcome.requestedModel) other.requested_model = outcome.requestedModel
  return {
    createdAt: now,
    type: delivered ? LogType.consume : LogType.error,
    userId: input.user.id,
    username: input.user.username,
    tokenId: input.token.id,
    tokenName: input.token.name,
    modelName: outcome.model,
    upstreamModel: outcome.upstreamModel,
    channelId: outcome.channelId,
    group: r.group,
    promptTokens: inputTokens(usage),
    completionTokens: outputTokens(usage),
    cacheReadTokens: usage.input.cacheRead,
    cacheWriteTokens: usage.input.cacheWrite,
    reasoningTokens: usage.output.reasoning,
    quota: charged,
    useTimeMs: Math.round(outcome.endedAt - outcome.startedAt),
    firstTokenMs: outcome.firstByteAt !== undefined ? Math.round(outcome.firstByteAt - outcome.startedAt) : 0,
    isStream: outcome.stream,
    statusCode: outcome.status,
    ip: input.clientIp,
    requestId: input.requestId,
    content: outcome.error ?? '',
    other: JSON.stringify(other),
  }
}
