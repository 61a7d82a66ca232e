/** Raw HTTP (no SDK) stream requests in each client protocol, for byte-level checks of what we send. */
import type { ProtocolId } from '../../../src/protocols/types'
import { parseSseText, type SseEvent } from '../../../src/protocols/sse'
import type { RelayEnv } from '../../helpers/relay-env'
import { TOOLS } from './harness'

const prompt = 'weather and time in Paris?'

/** A streaming request with tools and reasoning asked for, in `client`'s own wire format. */
function streamRequest(client: ProtocolId, model: string, key: string): { path: string; headers: Record<string, string>; body: unknown } {
  const json = { 'content-type': 'application/json' }
  switch (client) {
    case 'anthropic':
      return {
        path: '/v1/messages',
        headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: {
          model, max_tokens: 4096, stream: true, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: prompt }],
          tools: TOOLS.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
        },
      }
    case 'openai-chat':
      return {
        path: '/v1/chat/completions',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: {
          model, stream: true, stream_options: { include_usage: true }, reasoning_effort: 'medium', max_completion_tokens: 4096,
          messages: [{ role: 'user', content: prompt }], tools: TOOLS.map((t) => ({ type: 'function', function: t })),
        },
      }
    case 'openai-responses':
      return {
        path: '/v1/responses',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: {
          model, stream: true, store: false, input: prompt, reasoning: { effort: 'medium', summary: 'auto' }, include: ['reasoning.encrypted_content'],
          tools: TOOLS.map((t) => ({ type: 'function', strict: false, ...t })),
        },
      }
    case 'gemini':
      return {
        path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
        headers: { ...json, 'x-goog-api-key': key },
        body: {
          contents: [{ role: 'user', parts: [{ text: prompt }] }],
          tools: [{ functionDeclarations: TOOLS.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }],
          generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } },
        },
      }
  }
}

export interface RawStream {
  status: number
  contentType: string | null
  text: string
  events: SseEvent[]
  /** parsed `data:` payloads ([DONE] left out) */
  data: any[]
}

/** `seen`: called once the text read so far contains `marker` (a fake that cuts the stream waits for it). */
export async function rawStream(env: RelayEnv, client: ProtocolId, model: string, seen?: { marker: string; then: () => void }): Promise<RawStream> {
  const req = streamRequest(client, model, env.key)
  const res = await env.app.fetch(req.path, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body) })
  const read = async () => {
    let text = ''
    const decoder = new TextDecoder()
    const reader = res.body!.getReader()
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      text += decoder.decode(part.value, { stream: true })
      if (seen && text.includes(seen.marker)) seen.then()
    }
    return text
  }
  // a hang detector: a stream that never ends
  const text: string = await Promise.race([read(), Bun.sleep(30_000).then(() => Promise.reject(new Error('stream did not end')))])
  if (res.status !== 200) throw new Error(`${res.status}: ${text}`)
  const events = parseSseText(text)
  const data = events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data))
  return { status: res.status, contentType: res.headers.get('content-type'), text, events, data }
}
