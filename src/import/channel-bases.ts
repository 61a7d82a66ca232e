import { planByWord } from '../providers/coding-plans'
import type { CodingPlan as ServedPlan, Provider } from '../providers/types'
import { normalizeBaseUrl } from '../providers/url'
import type { Flavor } from './channel-types'

/**
 * What an empty `base_url` meant in the source: new-api's constant.ChannelBaseURLs and one-api's
 * channeltype.ChannelBaseURLs, by the source's own type number, for the types Tollgate serves. Where Tollgate's
 * default for the type differs (MiniMax: new-api used api.minimax.chat, Tollgate defaults to api.minimax.io), the
 * channel keeps going where it went.
 */
const SOURCE_DEFAULT_BASES: Record<Flavor, Readonly<Record<number, string>>> = {
  'new-api': {
    1: 'https://api.openai.com', 4: 'http://localhost:11434', 14: 'https://api.anthropic.com', 17: 'https://dashscope.aliyuncs.com',
    20: 'https://openrouter.ai/api', 24: 'https://generativelanguage.googleapis.com', 25: 'https://api.moonshot.cn', 26: 'https://open.bigmodel.cn',
    27: 'https://api.perplexity.ai', 31: 'https://api.lingyiwanwu.com', 34: 'https://api.cohere.ai', 35: 'https://api.minimax.chat', 38: 'https://api.jina.ai',
    39: 'https://api.cloudflare.com', 40: 'https://api.siliconflow.cn', 42: 'https://api.mistral.ai', 43: 'https://api.deepseek.com',
    45: 'https://ark.cn-beijing.volces.com', 46: 'https://qianfan.baidubce.com', 48: 'https://api.x.ai', 53: 'https://llm.submodel.ai',
  },
  'one-api': {
    1: 'https://api.openai.com', 14: 'https://api.anthropic.com', 17: 'https://dashscope.aliyuncs.com', 20: 'https://openrouter.ai/api',
    24: 'https://generativelanguage.googleapis.com', 25: 'https://api.moonshot.cn', 27: 'https://api.minimax.chat', 28: 'https://api.mistral.ai',
    30: 'http://localhost:11434', 31: 'https://api.lingyiwanwu.com', 35: 'https://api.cohere.ai', 36: 'https://api.deepseek.com', 37: 'https://api.cloudflare.com',
    40: 'https://ark.cn-beijing.volces.com', 44: 'https://api.siliconflow.cn',
  },
}

interface CodingPlan {
  name: string
  /** the channel type new-api reads the word for (its adaptor for that vendor) */
  type: number
  /** the plan's Anthropic-compatible base (new-api appends `/v1/messages`) and its OpenAI-compatible one */
  anthropic: string
  openai: string
}

/**
 * new-api's ChannelSpecialBases: a word put in `base_url` of the vendor's channel type that selects its Coding Plan,
 * whose keys work only at the plan's own endpoints. A channel of that type whose base URL is one of the plan's
 * endpoints is read the same way (the type's own paths appended to it would miss them); on any other type such a
 * URL is an ordinary base URL (an Anthropic or OpenAI channel appends only `/v1/…`, and reaches them as it is).
 */
const CODING_PLANS: Readonly<Record<string, CodingPlan>> = {
  'glm-coding-plan': { name: 'GLM Coding Plan', type: 26, anthropic: 'https://open.bigmodel.cn/api/anthropic', openai: 'https://open.bigmodel.cn/api/coding/paas/v4' },
  'glm-coding-plan-international': { name: 'GLM Coding Plan (Z.ai)', type: 26, anthropic: 'https://api.z.ai/api/anthropic', openai: 'https://api.z.ai/api/coding/paas/v4' },
}

export type BaseUrlChoice =
  /** stored as the source had it (normalised) */
  | { kind: 'kept'; baseUrl: string }
  /** stored as another value, reported as a mapping; `pin`: the channel's setting.upstream_protocol */
  | { kind: 'mapped'; baseUrl: string; pin?: 'anthropic'; note: string }
  /** an endpoint this type does not reach: the channel is imported disabled with `baseUrl` */
  | { kind: 'unreachable'; baseUrl: string; note: string }
  | { kind: 'invalid'; reason: string }

/**
 * The base URL a channel of a served type gets. A base that names the type's Anthropic-compatible endpoint
 * (`https://open.bigmodel.cn/api/anthropic`, `https://api.deepseek.com/anthropic`…) or a Coding Plan whose Anthropic
 * endpoint is that one becomes the root Tollgate adds the paths to, with the channel pinned to Anthropic: Claude Code
 * passes through, other clients are converted to it, and a plan's key never reaches the pay-as-you-go OpenAI paths.
 */
export function chooseBaseUrl(flavor: Flavor, sourceType: number, provider: Provider, raw: string): BaseUrlChoice {
  const text = raw.trim()
  const served = servedPlan(provider, text)
  if (served) return servedPlanChoice(served, text)
  const plans = Object.entries(CODING_PLANS).filter(([, p]) => p.type === provider.type)
  const plan = plans.find(([word]) => word === text.toLowerCase())?.[1]
  if (plan) return planChoice(plan, provider)
  if (!text) {
    const meant = SOURCE_DEFAULT_BASES[flavor][sourceType]
    if (!meant || meant === provider.defaultBaseUrl) return { kind: 'kept', baseUrl: '' }
    const note = `empty: ${flavor}'s default for this type, set explicitly (Tollgate's own default for ${provider.name} is ${provider.defaultBaseUrl || 'none'})`
    return { kind: 'mapped', baseUrl: meant, note }
  }
  let url: string
  try {
    url = normalizeBaseUrl(text)
  } catch (error) {
    return { kind: 'invalid', reason: (error as Error).message }
  }
  const root = anthropicRoot(provider, url)
  if (root !== undefined) {
    const note = `${provider.name}'s Anthropic-compatible endpoint: stored as the root Tollgate adds the endpoint paths to, pinned to it (setting.upstream_protocol "anthropic") so Claude Code passes through and other clients are converted to it`
    return { kind: 'mapped', baseUrl: root, pin: 'anthropic', note }
  }
  const named = plans.find(([, p]) => sameUrl(url, p.anthropic) || sameUrl(url, `${p.anthropic}/v1`) || sameUrl(url, p.openai))?.[1]
  return named ? planChoice(named, provider) : { kind: 'kept', baseUrl: url }
}

/** A plan the type reaches itself (src/providers' `plans`): named by new-api's word, its base, or an endpoint under it. */
function servedPlan(provider: Provider, text: string): ServedPlan | undefined {
  const named = planByWord(provider, text)
  if (named || !/^https?:\/\//i.test(text)) return named
  const url = text.replace(/\/+$/, '').toLowerCase()
  return provider.plans?.find((plan) => {
    const base = plan.baseUrl.toLowerCase()
    if (url === base) return true
    const rest = url.startsWith(`${base}/`) ? url.slice(base.length) : undefined
    return rest !== undefined && Object.values(plan.paths).some((path) => path === rest || path.startsWith(`${rest}/`))
  })
}

function servedPlanChoice(plan: ServedPlan, raw: string): BaseUrlChoice {
  const paths = Object.entries(plan.paths).map(([protocol, path]) => `${protocol} ${plan.baseUrl}${path}`).join(', ')
  if (raw === plan.baseUrl) return { kind: 'kept', baseUrl: plan.baseUrl }
  return { kind: 'mapped', baseUrl: plan.baseUrl, note: `${plan.name}: stored as the plan's base URL, whose endpoints this type reaches (${paths}); the plan's key goes nowhere else` }
}

function planChoice(plan: CodingPlan, provider: Provider): BaseUrlChoice {
  const root = anthropicRoot(provider, plan.anthropic)
  if (root !== undefined) {
    const note = `${plan.name}: stored as the root of its Anthropic endpoint ${plan.anthropic}, pinned to it (setting.upstream_protocol "anthropic") so Claude Code passes through and other clients are converted to it (the plan's OpenAI endpoint ${plan.openai} is not one this type reaches)`
    return { kind: 'mapped', baseUrl: root, pin: 'anthropic', note }
  }
  const reaches = provider.endpoints.anthropic ? `its Anthropic endpoint is ${provider.endpoints.anthropic.path}` : 'it speaks no Anthropic protocol'
  const note = `${plan.name} (${plan.anthropic}): Tollgate's ${provider.name} type does not reach the plan's endpoints yet (${reaches}): imported disabled with that base URL, so the plan's key is never sent to pay-as-you-go endpoints`
  return { kind: 'unreachable', baseUrl: plan.anthropic, note }
}

/**
 * When `url` is where the provider's Anthropic endpoint lives (its path prefix, `/v1` or `/v1/messages` after it):
 * the root the provider's paths hang off. Only for types that speak something besides Anthropic (pinning is moot
 * otherwise); a path before the prefix (a reverse proxy's) is kept.
 */
function anthropicRoot(provider: Provider, url: string): string | undefined {
  const endpoint = provider.endpoints.anthropic
  if (!endpoint || !provider.protocols.includes('anthropic') || provider.protocols.length < 2) return undefined
  const prefix = endpoint.path.replace(/\/v1\/messages$/, '')
  if (!prefix || prefix === endpoint.path) return undefined
  const parsed = new URL(url)
  const path = parsed.pathname.replace(/\/+$/, '')
  for (const whole of [prefix, `${prefix}/v1`, `${prefix}/v1/messages`]) {
    if (path.endsWith(whole)) return `${parsed.origin}${path.slice(0, path.length - whole.length)}`
  }
  return undefined
}

function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '').toLowerCase() === b.toLowerCase()
}
