import { advancedCustom } from './advanced-custom'
import { anthropic } from './anthropic'
import { azure } from './azure'
import { bedrock } from './bedrock'
import { cloudflare } from './cloudflare'
import { cohere } from './cohere'
import { custom } from './custom'
import { codex } from './codex'
import { coze } from './coze'
import { deepseek } from './deepseek'
import { dify } from './dify'
import { doubao } from './doubao'
import { gemini } from './gemini'
import { hunyuan } from './hunyuan'
import { jina } from './jina'
import { lingyiwanwu } from './lingyiwanwu'
import { midjourney, midjourneyPlus } from './midjourney'
import { minimax } from './minimax'
import { mistral } from './mistral'
import { moonshot } from './moonshot'
import { ollama } from './ollama'
import { openai } from './openai'
import { openrouter } from './openrouter'
import { perplexity } from './perplexity'
import { qianfan } from './qianfan'
import { qwen } from './qwen'
import { siliconflow } from './siliconflow'
import { spark } from './spark'
import { submodel } from './submodel'
import { suno } from './suno'
import type { Provider } from './types'
import { vertex } from './vertex-ai'
import { jimeng, kling, sora, vidu } from './video-vendors'
import { xai } from './xai'
import { xinference } from './xinference'
import { zhipu } from './zhipu'

/** Every supported provider, keyed by new-api channel type, in type order. Adding a vendor = one data file + one line. */
export const PROVIDERS: readonly Provider[] = [
  openai, azure, ollama, custom, anthropic, qwen, spark, openrouter, gemini, hunyuan, moonshot, zhipu, perplexity, lingyiwanwu, bedrock, cohere,
  minimax, dify, jina, cloudflare, siliconflow, vertex, mistral, deepseek, doubao, qianfan, xinference, xai, coze, submodel,
  codex, advancedCustom, midjourney, midjourneyPlus, suno,
  // video APIs, polled as tasks (src/tasks/video/)
  kling, jimeng, vidu, sora,
]

const byType = new Map(PROVIDERS.map((p) => [p.type, p]))

export function providerFor(type: number): Provider | undefined {
  return byType.get(type)
}

export function supportedTypes(): number[] {
  return [...byType.keys()]
}

/** A provider the relay can route anything to: a chat protocol, another operation, or tasks. */
export function servesAnything(provider: Provider): boolean {
  return provider.protocols.length > 0 || Object.keys(provider.operations ?? {}).length > 0 || provider.tasks !== undefined || provider.videos !== undefined
}
