/**
 * The conversion matrix's shared ground: one gateway, one fake upstream, one channel per upstream protocol
 * (each serving its own model name, so the model picks the upstream; names with list prices, so metering
 * serves them), the scenarios and the usage each client must see.
 */
import type { Usage } from '../../../src/ir'
import type { ProtocolId } from '../../../src/protocols/types'
import type { Scenario, ScenarioUsage } from '../../helpers/fake-upstreams'
import { startRelayEnv } from '../../helpers/relay-env'
import { addVendorChannels, VENDOR_UPSTREAMS, type MatrixEnv, type Recording, type Sent, type VendorCase, type Wire } from './vendors'

export type { MatrixEnv } from './vendors'

export type Kind = 'text' | 'tool' | 'reasoning'
export const CLIENT_PROTOCOLS: ProtocolId[] = ['anthropic', 'openai-chat', 'openai-responses', 'gemini']

export interface UpstreamCase {
  protocol: ProtocolId
  /** the model that routes to this upstream's channel */
  model: string
  /** the request path the fake must have seen */
  path: (stream: boolean) => string
}

/**
 * anthropic: type 14. openai-chat: a custom type 8 channel (speaks only chat). openai-responses: an OpenAI
 * (type 1) channel pinned to Responses with `setting.upstream_protocol`, so every client is converted to
 * Responses (the Responses client passes through). gemini: type 24 with a Gemini 3 model name, so the fake
 * insists on thought signatures on replayed function calls.
 */
export const UPSTREAMS: UpstreamCase[] = [
  { protocol: 'anthropic', model: 'claude-sonnet-4-5', path: () => '/v1/messages' },
  { protocol: 'openai-chat', model: 'gpt-4.1-mini', path: () => '/v1/chat/completions' },
  { protocol: 'openai-responses', model: 'gpt-5-mini', path: () => '/v1/responses' },
  { protocol: 'gemini', model: 'gemini-3-pro-preview', path: (s) => `/v1beta/models/gemini-3-pro-preview:${s ? 'streamGenerateContent' : 'generateContent'}` },
]

/** Every upstream of the SDK matrix, the framing and the cut streams: the four protocols and the vendors (vendors.ts). */
export const ALL_UPSTREAMS: (UpstreamCase | VendorCase)[] = [...UPSTREAMS, ...VENDOR_UPSTREAMS]

/** The wire shape an upstream's fake receives. */
export const wireOf = (up: UpstreamCase | VendorCase): Wire => ('wire' in up ? up.wire : up.protocol)

/** The fake serving an upstream, read as `Sent` records. */
export function recordingOf(env: MatrixEnv, up: UpstreamCase | VendorCase): Recording {
  if ('fake' in up) return up.fake(env)
  return {
    get requests() {
      return env.upstream.requests as Sent[]
    },
    setBehavior: (b) => env.upstream.setBehavior(b),
    reset: () => env.upstream.reset(),
  }
}

export async function startMatrixEnv(): Promise<MatrixEnv> {
  const env = await startRelayEnv()
  // autoBan off: the cut-stream tests fail channels on purpose
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5', autoBan: 0 })
  await env.addChannel({ type: 8, models: 'gpt-4.1-mini', autoBan: 0 })
  await env.addChannel({ type: 1, models: 'gpt-5-mini', autoBan: 0, setting: JSON.stringify({ upstream_protocol: 'openai-responses' }) })
  await env.addChannel({ type: 24, models: 'gemini-3-pro-preview', autoBan: 0 })
  const vendors = await addVendorChannels(env)
  const stop = env.stop
  return Object.assign(env, { vendors, stop: async () => void (await Promise.all([stop(), vendors.stop()])) })
}

/** Resets every fake of the env (recorded requests and behavior). */
export function resetFakes(env: MatrixEnv): void {
  env.upstream.reset()
  for (const f of [env.vendors.bedrock, env.vendors.vertex]) f.reset()
}

/** Distinct numbers, so a field taken from the wrong counter (or summed twice) shows. */
export const USAGE: Required<ScenarioUsage> = { input: 11, cacheRead: 7, cacheWrite: 5, cacheWrite1h: 0, output: 30, reasoning: 9 }

export const TOOLS = [
  { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { name: 'get_time', description: 'Time in a zone', parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } },
]
export const CALLS = [
  { name: 'get_weather', arguments: { city: 'Paris' } },
  { name: 'get_time', arguments: { tz: 'Europe/Paris' } },
]
export const TEXT = 'Hello from the matrix.'
export const REASONING = 'First, think it over.'
export const SIGNATURE = 'sig-matrix-0001'
export const AFTER_TOOLS = 'Sunny in Paris, nine o’clock.'

export function scenario(kind: Kind): Scenario {
  const usage = { ...USAGE, reasoning: kind === 'reasoning' ? USAGE.reasoning : 0 }
  if (kind === 'tool') return { toolCalls: CALLS.map((c) => ({ ...c, fragments: 3 })), usage }
  if (kind === 'reasoning') return { reasoning: REASONING, text: 'The answer is 42.', signature: SIGNATURE, usage }
  return { text: TEXT, usage }
}

/** The neutral usage the gateway must derive from what each vendor reports for `scenario(kind)`. */
export function expectedUsage(upstream: Wire, kind: Kind): Usage {
  const reasoning = kind === 'reasoning' ? USAGE.reasoning : 0
  // Anthropic and Converse: input_tokens excludes cache reads and writes; output_tokens includes thinking, not split out.
  if (upstream === 'anthropic' || upstream === 'bedrock-converse')
    return { input: { noCache: USAGE.input, cacheRead: USAGE.cacheRead, cacheWrite: USAGE.cacheWrite }, output: { text: USAGE.output, reasoning: 0 } }
  // OpenAI / Gemini: the prompt count includes cached tokens (writes are not reported apart: plain input).
  return {
    input: { noCache: USAGE.input + USAGE.cacheWrite, cacheRead: USAGE.cacheRead, cacheWrite: 0 },
    output: { text: USAGE.output - reasoning, reasoning },
  }
}

/** The usage fields a client of `client` must read for neutral usage `u`, in its own names. */
export function clientUsage(client: ProtocolId, u: Usage): Record<string, number | undefined> {
  const prompt = u.input.noCache + u.input.cacheRead + u.input.cacheWrite
  const output = u.output.text + u.output.reasoning
  switch (client) {
    case 'anthropic':
      return { input: u.input.noCache, cacheRead: u.input.cacheRead, cacheWrite: u.input.cacheWrite, output }
    case 'openai-chat':
    case 'openai-responses':
      return { input: prompt, cacheRead: u.input.cacheRead, output, reasoning: u.output.reasoning }
    case 'gemini':
      return { input: prompt, cacheRead: u.input.cacheRead || undefined, output: u.output.text, reasoning: u.output.reasoning || undefined }
  }
}
