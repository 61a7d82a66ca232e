import type { Operation } from '../types'
import { mistralFim } from './mistral'
import { openAiCompletions } from './openai'
import { decodeCompletions, type CompletionsRequest } from './request'

export type { CompletionsRequest } from './request'

/**
 * The legacy `POST /v1/completions` (fill-in-the-middle clients: Continue's autocomplete), billed per token with
 * `max_tokens` reserved. Also at `/v1/beta/completions`, where Continue's DeepSeek provider sends FIM when its
 * apiBase is the gateway's `/v1/` (DeepSeek's own beta path, under the gateway's /v1).
 */
export const completions: Operation<CompletionsRequest> = {
  id: 'completions',
  path: '/v1/completions',
  aliases: ['/v1/beta/completions'],
  body: 'json',
  decode: decodeCompletions,
  dialects: { openai: openAiCompletions, 'mistral-fim': mistralFim },
  probe: (model) => ({ model, prompt: 'hi', max_tokens: 1 }),
}
