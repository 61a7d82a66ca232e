/** Which vendor a model comes from, by its name (the server knows channels, not brands); first match wins. */
const VENDORS = [
  ['openai', 'OpenAI', /^(gpt|o\d|chatgpt|text-embedding|dall-e|whisper|tts-|omni-moderation|text-moderation|davinci|babbage|codex)/],
  ['anthropic', 'Anthropic', /^claude/],
  ['google', 'Google', /^(gemini|gemma|imagen|veo|text-embedding-00|palm)/],
  ['deepseek', 'DeepSeek', /deepseek/],
  ['qwen', 'Qwen', /^(qwen|qwq|qvq)|\/qwen/],
  ['meta', 'Meta', /llama/],
  ['mistral', 'Mistral', /^(mistral|mixtral|codestral|pixtral|ministral|magistral|devstral)/],
  ['xai', 'xAI', /^grok/],
  ['zhipu', 'Zhipu', /^(glm|chatglm|cogview|cogvideo)/],
  ['moonshot', 'Moonshot', /^(moonshot|kimi)/],
  ['doubao', 'Doubao', /^(doubao|seed)/],
  ['wenxin', 'ERNIE', /^ernie/],
  ['hunyuan', 'Hunyuan', /hunyuan/],
  ['minimax', 'MiniMax', /^(minimax|abab)/],
  ['cohere', 'Cohere', /^(command|embed-|rerank-(english|multilingual)|c4ai)/],
  ['jina', 'Jina', /^jina/],
  ['perplexity', 'Perplexity', /^(sonar|pplx)/],
  ['stepfun', 'StepFun', /^step-/],
  ['yi', 'Yi', /^yi-/],
  ['baichuan', 'Baichuan', /^baichuan/],
  ['spark', 'Spark', /^(spark|generalv)/],
  ['midjourney', 'Midjourney', /^(mj_|midjourney)/],
  ['flux', 'FLUX', /flux/],
] as const

export type VendorId = (typeof VENDORS)[number][0] | 'other'

export interface Vendor {
  id: VendorId
  name: string
}

const OTHER: Vendor = { id: 'other', name: 'Other' }

export function vendorOf(model: string): Vendor {
  const name = model.trim().toLowerCase()
  const found = VENDORS.find(([, , pattern]) => pattern.test(name))
  return found ? { id: found[0], name: found[1] } : OTHER
}
