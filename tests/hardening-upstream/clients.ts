/** One streaming request per client protocol, and what a client of that protocol makes of the answer. */
import { parseSseText } from '../../src/protocols/sse'
import type { RelayEnv } from '../helpers/relay-env'

export type Client = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'gemini-array'
export const CLIENTS: Client[] = ['anthropic', 'openai-chat', 'openai-responses', 'gemini', 'gemini-array']

/** The channel types of the test envs, by the protocol they speak, each with its own model. */
export const MODEL_OF = { anthropic: 'claude-sonnet-4-5', openai: 'gpt-4o', gemini: 'gemini-2.5-flash' } as const
export type Upstream = keyof typeof MODEL_OF
export const TYPE_OF: Record<Upstream, number> = { anthropic: 14, openai: 1, gemini: 24 }

/** The upstream that passes a client's protocol through, and one that needs a conversion. */
export function upstreamFor(client: Client, mode: 'passthrough' | 'conversion'): Upstream {
  const own: Upstream = client === 'anthropic' ? 'anthropic' : client.startsWith('gemini') ? 'gemini' : 'openai'
  if (mode === 'passthrough') return own
  return own === 'openai' ? 'anthropic' : 'openai'
}

/** The upstream protocol a channel of `upstream` speaks for `client` (OpenAI passes Responses through). */
export function upstreamProtocol(client: Client, upstream: Upstream): 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' {
  if (upstream === 'anthropic') return 'anthropic'
  if (upstream === 'gemini') return 'gemini'
  return client === 'openai-responses' ? 'openai-responses' : 'openai-chat'
}

/** Frames the fake sends before its first content frame, per upstream protocol (text-only scenarios). */
export const FRAMES_BEFORE_CONTENT = { anthropic: 3, 'openai-chat': 1, 'openai-responses': 4, gemini: 0 } as const

export function send(env: RelayEnv, client: Client, model: string, key = env.key, signal?: AbortSignal): Promise<Response> {
  const prompt = 'say something'
  switch (client) {
    case 'anthropic':
      return env.app.fetch('/v1/messages', {
        method: 'POST', signal,
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: prompt }] }),
      })
    case 'openai-chat':
      return env.app.fetch('/v1/chat/completions', {
        method: 'POST', signal,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: prompt }] }),
      })
    case 'openai-responses':
      return env.app.fetch('/v1/responses', {
        method: 'POST', signal,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, max_output_tokens: 100, stream: true, input: prompt }),
      })
    case 'gemini':
    case 'gemini-array':
      return env.app.fetch(`/v1beta/models/${model}:streamGenerateContent${client === 'gemini' ? '?alt=sse' : ''}`, {
        method: 'POST', signal,
        headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt }] }], generationConfig: { maxOutputTokens: 100 } }),
      })
  }
}

export interface ClientView {
  /** the answer text the client assembled */
  text: string
  /** the error event's message, when the stream ended with one */
  error?: string
  /** whether the stream ended properly (message_stop, [DONE], response.completed, a finishReason) */
  finished: boolean
}

/**
 * Read a streamed answer the way a strict client does: every event must parse (JSON or `[DONE]`), and nothing may
 * follow an error event. Throws on anything a client could not read.
 */
export function readAs(client: Client, body: string): ClientView {
  const view: ClientView = { text: '', finished: false }
  const datas: { event?: string; data: unknown }[] = []
  if (client === 'gemini-array') {
    const array = JSON.parse(body) as unknown[]
    if (!Array.isArray(array)) throw new Error('not a JSON array')
    for (const item of array) datas.push({ data: item })
  } else {
    for (const ev of parseSseText(body)) {
      if (ev.data === '[DONE]') {
        if (client !== 'openai-chat') throw new Error(`[DONE] in a ${client} stream`)
        datas.push({ data: '[DONE]' })
        continue
      }
      datas.push({ event: ev.event, data: JSON.parse(ev.data) })
    }
  }
  for (const { event, data } of datas) {
    if (view.error !== undefined) throw new Error(`an event after the error: ${JSON.stringify(data)}`)
    const d = data as any
    if (client === 'anthropic') {
      if (event === 'error' || d.type === 'error') view.error = d.error.message
      else if (d.type === 'content_block_delta' && d.delta.type === 'text_delta') view.text += d.delta.text
      else if (d.type === 'message_stop') view.finished = true
    } else if (client === 'openai-chat') {
      if (d === '[DONE]') view.finished = true
      else if (d.error) view.error = d.error.message
      else view.text += d.choices?.[0]?.delta?.content ?? ''
    } else if (client === 'openai-responses') {
      if (d.type === 'error') view.error = d.message
      else if (d.type === 'response.failed') view.error = d.response?.error?.message ?? 'response.failed'
      else if (d.type === 'response.output_text.delta') view.text += d.delta
      else if (d.type === 'response.completed') view.finished = true
    } else {
      if (d.error) view.error = d.error.message
      else {
        for (const part of d.candidates?.[0]?.content?.parts ?? []) if (!part.thought && part.text) view.text += part.text
        if (d.candidates?.[0]?.finishReason) view.finished = true
      }
    }
  }
  return view
}
