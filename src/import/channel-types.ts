import { PRESETS, type ChannelPreset } from '../providers/presets'

/**
 * Channel type numbers. Tollgate numbers channel types as new-api does (constant/channel.go), so a new-api type
 * is stored as it is. one-api (relay/channeltype/define.go, an iota list) agrees with new-api up to 25 except at
 * 2, 4 and 5, and numbers everything after 25 differently: each of its types is translated to new-api's number
 * for the same vendor, to Custom (8) when Tollgate serves the vendor as a preset (Groq, Together), or to 0.
 */
const NEW_API_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: 'Unknown',
  1: 'OpenAI',
  2: 'Midjourney',
  3: 'Azure',
  4: 'Ollama',
  5: 'MidjourneyPlus',
  6: 'OpenAIMax',
  7: 'OhMyGPT',
  8: 'Custom',
  9: 'AILS',
  10: 'AIProxy',
  11: 'PaLM',
  12: 'API2GPT',
  13: 'AIGC2D',
  14: 'Anthropic',
  15: 'Baidu',
  16: 'Zhipu',
  17: 'Ali',
  18: 'Xunfei',
  19: '360',
  20: 'OpenRouter',
  21: 'AIProxyLibrary',
  22: 'FastGPT',
  23: 'Tencent',
  24: 'Gemini',
  25: 'Moonshot',
  26: 'ZhipuV4',
  27: 'Perplexity',
  31: 'LingYiWanWu',
  33: 'AWS',
  34: 'Cohere',
  35: 'MiniMax',
  36: 'SunoAPI',
  37: 'Dify',
  38: 'Jina',
  39: 'Cloudflare',
  40: 'SiliconFlow',
  41: 'VertexAI',
  42: 'Mistral',
  43: 'DeepSeek',
  44: 'MokaAI',
  45: 'VolcEngine',
  46: 'BaiduV2',
  47: 'Xinference',
  48: 'xAI',
  49: 'Coze',
  50: 'Kling',
  51: 'Jimeng',
  52: 'Vidu',
  53: 'Submodel',
  54: 'DoubaoVideo',
  55: 'Sora',
  56: 'Replicate',
  57: 'Codex',
  58: 'AdvancedCustom',
}

/**
 * one-api's types: its name and new-api's number for the same vendor (undefined: new-api has none). `preset`: a
 * service new-api has no number for but Tollgate serves as a preset of Custom (src/providers/presets.ts).
 */
export const ONE_API_TYPES: Readonly<Record<number, { name: string; newApi: number | undefined; preset?: string }>> = {
  0: { name: 'Unknown', newApi: 0 },
  1: { name: 'OpenAI', newApi: 1 },
  2: { name: 'API2D', newApi: undefined },
  3: { name: 'Azure', newApi: 3 },
  4: { name: 'CloseAI', newApi: undefined },
  5: { name: 'OpenAISB', newApi: undefined },
  6: { name: 'OpenAIMax', newApi: 6 },
  7: { name: 'OhMyGPT', newApi: 7 },
  8: { name: 'Custom', newApi: 8 },
  9: { name: 'Ails', newApi: 9 },
  10: { name: 'AIProxy', newApi: 10 },
  11: { name: 'PaLM', newApi: 11 },
  12: { name: 'API2GPT', newApi: 12 },
  13: { name: 'AIGC2D', newApi: 13 },
  14: { name: 'Anthropic', newApi: 14 },
  15: { name: 'Baidu', newApi: 15 },
  16: { name: 'Zhipu', newApi: 16 },
  17: { name: 'Ali', newApi: 17 },
  18: { name: 'Xunfei', newApi: 18 },
  19: { name: 'AI360', newApi: 19 },
  20: { name: 'OpenRouter', newApi: 20 },
  21: { name: 'AIProxyLibrary', newApi: 21 },
  22: { name: 'FastGPT', newApi: 22 },
  23: { name: 'Tencent', newApi: 23 },
  24: { name: 'Gemini', newApi: 24 },
  25: { name: 'Moonshot', newApi: 25 },
  26: { name: 'Baichuan', newApi: undefined },
  27: { name: 'Minimax', newApi: 35 },
  28: { name: 'Mistral', newApi: 42 },
  29: { name: 'Groq', newApi: undefined, preset: 'groq' },
  30: { name: 'Ollama', newApi: 4 },
  31: { name: 'LingYiWanWu', newApi: 31 },
  32: { name: 'StepFun', newApi: undefined },
  33: { name: 'AwsClaude', newApi: 33 },
  34: { name: 'Coze', newApi: 49 },
  35: { name: 'Cohere', newApi: 34 },
  36: { name: 'DeepSeek', newApi: 43 },
  37: { name: 'Cloudflare', newApi: 39 },
  38: { name: 'DeepL', newApi: undefined },
  39: { name: 'TogetherAI', newApi: undefined, preset: 'together' },
  40: { name: 'Doubao', newApi: 45 },
  41: { name: 'Novita', newApi: undefined },
  42: { name: 'VertextAI', newApi: 41 },
  43: { name: 'Proxy', newApi: undefined },
  44: { name: 'SiliconFlow', newApi: 40 },
  45: { name: 'XAI', newApi: 48 },
  46: { name: 'Replicate', newApi: 56 },
  47: { name: 'BaiduV2', newApi: 46 },
  48: { name: 'XunfeiV2', newApi: undefined },
  49: { name: 'AliBailian', newApi: undefined },
  // one-api's "OpenAI compatible" is new-api's Custom: an OpenAI-style API at a base URL the channel gives
  50: { name: 'OpenAICompatible', newApi: 8 },
  51: { name: 'GeminiOpenAICompatible', newApi: undefined },
}

export type Flavor = 'new-api' | 'one-api'

export interface TypeTranslation {
  /** the number Tollgate stores (new-api numbering); 0 when the vendor has no new-api number */
  type: number
  /** the source's own number and name, for the report */
  sourceType: number
  sourceName: string
  /** the Custom (8) preset Tollgate serves this vendor as, when it has no new-api number */
  preset?: ChannelPreset
}

export function translateType(flavor: Flavor, sourceType: number): TypeTranslation {
  if (flavor === 'new-api') return { type: sourceType, sourceType, sourceName: NEW_API_TYPE_NAMES[sourceType] ?? `type ${sourceType}` }
  const known = ONE_API_TYPES[sourceType]
  const preset = known?.preset === undefined ? undefined : PRESETS.find((p) => p.id === known.preset)
  if (preset) return { type: preset.type, sourceType, sourceName: known!.name, preset }
  return { type: known?.newApi ?? 0, sourceType, sourceName: known?.name ?? `type ${sourceType}` }
}
