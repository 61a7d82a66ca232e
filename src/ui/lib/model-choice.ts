/**
 * Which model to hand out (the token dialog's snippets, the playground): one that can chat and has a price.
 * The server knows no model types, so the kind comes from the name; prices come from `GET /api/pricing`.
 */

export type ModelKind = 'chat' | 'embedding' | 'rerank' | 'speech' | 'transcription' | 'image' | 'video' | 'moderation' | 'completion' | 'realtime'

/** Name patterns of models that cannot answer a chat request, first match wins; anything else is taken for chat. */
const NOT_CHAT: readonly (readonly [Exclude<ModelKind, 'chat'>, RegExp])[] = [
  ['rerank', /rerank/],
  ['embedding', /embed|(^|[-_/.])(bge|e5|gte|m3e)([-_.]|$)|text-(similarity|search)-/],
  ['moderation', /moderation/],
  ['transcription', /whisper|transcri|(^|[-_/])(asr|stt)([-_]|$)|paraformer|sensevoice/],
  ['speech', /(^|[-_/])tts([-_]|$)|text-to-speech|speech-|cosyvoice|sambert/],
  ['realtime', /realtime/],
  ['image', /dall-e|gpt-image|imagen|stable-diffusion|sdxl|flux|midjourney|(^|[-_/])mj[-_]|cogview|wanx|seedream|kolors|(^|[-_/])image([-_]|$)|image-generation/],
  ['video', /(^|[-_/])(sora|veo|kling|video)([-_]|$)|seedance|hailuo/],
  // OpenAI's completion-only models: /v1/completions, no chat
  ['completion', /^(ada|babbage|curie|davinci)(-00\d)?$|text-(ada|babbage|curie|davinci)-|code-davinci|turbo-instruct/],
]

/** The model's kind, from its name (a provider prefix like `BAAI/` is ignored; case does not matter). */
export function modelKind(model: string): ModelKind {
  const name = model.trim().toLowerCase()
  return NOT_CHAT.find(([, pattern]) => pattern.test(name))?.[0] ?? 'chat'
}

export const canChat = (model: string) => modelKind(model) === 'chat'

/** What `/api/pricing` says of the caller's models: those with a price (or free), and self-use mode. */
export interface ModelPrices {
  priced: ReadonlySet<string>
  selfUse: boolean
}

/** `/api/pricing`'s answer, reduced to what the choice needs. */
export function pricesFrom(list: { self_use_mode: boolean; items: readonly { model: string; priced: boolean; mode: string }[] }): ModelPrices {
  return { selfUse: list.self_use_mode, priced: new Set(list.items.filter((item) => item.priced || item.mode === 'free').map((item) => item.model)) }
}

/** Whether a request to the model would pass the price check: undefined while prices are unknown. */
export function isPriced(model: string, prices: ModelPrices | undefined): boolean | undefined {
  if (!prices) return undefined
  return prices.selfUse || prices.priced.has(model)
}

/** The models best first: chat and priced, chat without a price, then the rest; names keep their order within each. */
export function rankModels(models: readonly string[], prices?: ModelPrices): string[] {
  const tier = (model: string) => (canChat(model) ? 0 : 2) + (isPriced(model, prices) === false ? 1 : 0)
  return distinct(models)
    .map((model, index) => ({ model, index, tier: tier(model) }))
    .sort((a, b) => a.tier - b.tier || a.index - b.index)
    .map((entry) => entry.model)
}

/**
 * The model to offer: the one picked on this page while it is offered (whatever it is: the person chose it),
 * else the remembered one while it is still offered and priced, else the best ranked. undefined when none.
 */
export function chooseModel(models: readonly string[], options: { prices?: ModelPrices; remembered?: string | null; picked?: string } = {}): string | undefined {
  const { prices, remembered, picked } = options
  const offered = distinct(models)
  if (picked && offered.includes(picked)) return picked
  if (remembered && offered.includes(remembered) && isPriced(remembered, prices) !== false) return remembered
  return rankModels(offered, prices)[0]
}

/** True when prices are known, self-use mode is off and not one of the models has a price: every request would be refused. */
export function noneHasPrice(models: readonly string[], prices: ModelPrices | undefined): boolean {
  const offered = distinct(models)
  return Boolean(prices) && offered.length > 0 && offered.every((model) => isPriced(model, prices) === false)
}

function distinct(models: readonly string[]): string[] {
  return [...new Set(models.map((model) => model.trim()).filter(Boolean))]
}
