/**
 * Channel types as the console names them: new-api's type number, the provider's display name and its
 * default base URL ('' = the channel must give one) and whether it needs a key. A copy of src/providers' data (the server is not
 * bundled into the browser); tests/ui/channel-types.test.ts keeps the two in step.
 */
export interface ChannelType {
  type: number
  name: string
  baseUrl: string
  /** false for local servers that work without a key (Ollama) */
  keyRequired: boolean
  /** true when the address is made from the key and `other` (Bedrock's region, Vertex's project): no base URL needed */
  baseUrlOptional?: true
}

export const CHANNEL_TYPES: readonly ChannelType[] = [
  { type: 1, name: 'OpenAI', baseUrl: 'https://api.openai.com', keyRequired: true },
  { type: 3, name: 'Azure OpenAI', baseUrl: '', keyRequired: true },
  { type: 4, name: 'Ollama', baseUrl: 'http://localhost:11434', keyRequired: false },
  { type: 8, name: 'Custom (OpenAI-compatible)', baseUrl: '', keyRequired: true },
  { type: 14, name: 'Anthropic', baseUrl: 'https://api.anthropic.com', keyRequired: true },
  { type: 17, name: 'Qwen (Alibaba DashScope)', baseUrl: 'https://dashscope.aliyuncs.com', keyRequired: true },
  { type: 18, name: 'iFlytek Spark', baseUrl: 'https://spark-api.xf-yun.com', keyRequired: true },
  { type: 20, name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api', keyRequired: true },
  { type: 24, name: 'Google Gemini', baseUrl: 'https://generativelanguage.googleapis.com', keyRequired: true },
  { type: 23, name: 'Tencent Hunyuan', baseUrl: 'https://hunyuan.tencentcloudapi.com', keyRequired: true, baseUrlOptional: true },
  { type: 25, name: 'Moonshot', baseUrl: 'https://api.moonshot.cn', keyRequired: true },
  { type: 26, name: 'Zhipu GLM', baseUrl: 'https://open.bigmodel.cn', keyRequired: true },
  { type: 27, name: 'Perplexity', baseUrl: 'https://api.perplexity.ai', keyRequired: true },
  { type: 31, name: '01.AI (LingYiWanWu)', baseUrl: 'https://api.lingyiwanwu.com', keyRequired: true },
  { type: 33, name: 'AWS Bedrock', baseUrl: '', keyRequired: true, baseUrlOptional: true },
  { type: 34, name: 'Cohere', baseUrl: 'https://api.cohere.ai', keyRequired: true },
  { type: 35, name: 'MiniMax', baseUrl: 'https://api.minimax.io', keyRequired: true },
  { type: 37, name: 'Dify', baseUrl: 'https://api.dify.ai', keyRequired: true },
  { type: 38, name: 'Jina AI', baseUrl: 'https://api.jina.ai', keyRequired: true },
  { type: 39, name: 'Cloudflare Workers AI', baseUrl: 'https://api.cloudflare.com', keyRequired: true },
  { type: 40, name: 'SiliconFlow', baseUrl: 'https://api.siliconflow.cn', keyRequired: true },
  { type: 41, name: 'Google Vertex AI', baseUrl: '', keyRequired: true, baseUrlOptional: true },
  { type: 42, name: 'Mistral', baseUrl: 'https://api.mistral.ai', keyRequired: true },
  { type: 43, name: 'DeepSeek', baseUrl: 'https://api.deepseek.com', keyRequired: true },
  { type: 45, name: 'Doubao (Volcengine Ark)', baseUrl: 'https://ark.cn-beijing.volces.com', keyRequired: true },
  { type: 46, name: 'Baidu Qianfan', baseUrl: 'https://qianfan.baidubce.com', keyRequired: true },
  { type: 47, name: 'Xinference', baseUrl: 'http://localhost:9997', keyRequired: false },
  { type: 48, name: 'xAI', baseUrl: 'https://api.x.ai', keyRequired: true },
  { type: 49, name: 'Coze', baseUrl: 'https://api.coze.cn', keyRequired: true },
  { type: 53, name: 'Submodel', baseUrl: 'https://llm.submodel.ai', keyRequired: true },
  { type: 57, name: 'Codex (ChatGPT sign-in)', baseUrl: 'https://chatgpt.com', keyRequired: true, baseUrlOptional: true },
  { type: 58, name: 'AdvancedCustom', baseUrl: '', keyRequired: false, baseUrlOptional: true },
  { type: 2, name: 'Midjourney Proxy', baseUrl: '', keyRequired: false },
  { type: 5, name: 'Midjourney Proxy Plus', baseUrl: '', keyRequired: false },
  { type: 36, name: 'Suno API', baseUrl: '', keyRequired: true },
  { type: 50, name: 'Kling', baseUrl: 'https://api.klingai.com', keyRequired: true },
  { type: 51, name: 'Jimeng', baseUrl: 'https://visual.volcengineapi.com', keyRequired: true },
  { type: 52, name: 'Vidu', baseUrl: 'https://api.vidu.cn', keyRequired: true },
  { type: 55, name: 'Sora', baseUrl: 'https://api.openai.com', keyRequired: true },
]

/**
 * OpenAI-compatible services without a new-api type number: channels of type 8 (Custom) with this base URL.
 * A copy of src/providers/presets.ts, kept in step by the same test.
 */
export interface ChannelPresetInfo {
  name: string
  baseUrl: string
}

export const CHANNEL_PRESETS: readonly ChannelPresetInfo[] = [
  { name: 'Groq', baseUrl: 'https://api.groq.com/openai' },
  { name: 'Together AI', baseUrl: 'https://api.together.xyz' },
  { name: 'Fireworks AI', baseUrl: 'https://api.fireworks.ai/inference' },
  { name: 'Cerebras', baseUrl: 'https://api.cerebras.ai' },
  { name: 'vLLM', baseUrl: 'http://localhost:8000' },
]

const byType = new Map(CHANNEL_TYPES.map((t) => [t.type, t]))

export function channelType(type: number): ChannelType | undefined {
  return byType.get(type)
}

/** The type's name; an unknown number (a channel from a newer version) shows as `#<n>`. */
export function channelTypeName(type: number): string {
  return byType.get(type)?.name ?? `#${type}`
}
