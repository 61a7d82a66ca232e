import type { CodingPlan, Provider, UpstreamProtocolId } from './types'

const same = (a: string, b: string) => a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase()

/** The Coding Plan a channel's base URL selects, if any. */
export function planOf(provider: Provider, baseUrl: string): CodingPlan | undefined {
  if (!baseUrl || !provider.plans) return undefined
  return provider.plans.find((plan) => same(plan.baseUrl, baseUrl))
}

/** new-api's word for a plan (`kimi-coding-plan`) as typed into `base_url`: the plan it names on this type. */
export function planByWord(provider: Provider, text: string): CodingPlan | undefined {
  const word = text.trim().toLowerCase()
  return provider.plans?.find((plan) => plan.word === word)
}

/** The path a protocol lives at on the channel's plan, or undefined (no plan: the provider's own path). */
export function planPath(provider: Provider, baseUrl: string, protocol: UpstreamProtocolId): string | undefined {
  return planOf(provider, baseUrl)?.paths[protocol]
}
