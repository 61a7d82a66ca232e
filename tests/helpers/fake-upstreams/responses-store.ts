/**
 * The fake OpenAI account's stored responses: each response a `/v1/responses` call created (unless `store: false`)
 * is kept under the key that made it, as OpenAI keeps them per account, and answered on its resource paths
 * (retrieve, delete, cancel, input_items); `/v1/responses/compact` compacts. Another key never sees them.
 */
import { openaiError, openaiHeaders } from './openai-chat'
import { responseUsage } from './openai-responses'
import { bearer, json, nowSeconds, randomHex } from './shared'
import type { Plan, RecordedRequest } from './types'

interface Stored {
  key: string | undefined
  response: Record<string, any>
  input: unknown[]
}

export const RESOURCE_PATH = /^\/v1\/responses\/([A-Za-z0-9_-]+)(\/input_items|\/cancel)?$/

const notFound = (id: string) => json(openaiError(404, 'invalid_request_error', `Response with id '${id}' not found.`, null, null), 404, openaiHeaders())

function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ id: 'msg_' + randomHex(48), type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }]
  return Array.isArray(input) ? input.map((item) => ({ id: 'msg_' + randomHex(48), ...item })) : []
}

export function createResponsesStore() {
  const stored = new Map<string, Stored>()

  function ownedBy(rec: RecordedRequest, id: string): Stored | undefined {
    const entry = stored.get(id)
    return entry && entry.key === bearer(rec) ? entry : undefined
  }

  return {
    stored,
    /** a `/v1/responses` answer: the response object (a body, or the last stream event's) */
    created(rec: RecordedRequest, response: Record<string, any> | undefined): void {
      if (!response || rec.json?.store === false) return
      stored.set(response.id, { key: bearer(rec), response, input: inputItems(rec.json?.input) })
    },
    /** the response object of a stream's `response.completed` (or last) event */
    fromFrames(frames: string[]): Record<string, any> | undefined {
      for (const frame of [...frames].reverse()) {
        const data = /^data: (.*)$/m.exec(frame)?.[1]
        if (!data) continue
        try {
          const event = JSON.parse(data)
          if (event.response?.id) return event.response
        } catch {}
      }
      return undefined
    },
    resource(rec: RecordedRequest): Response {
      const [, id, tail] = RESOURCE_PATH.exec(rec.path)!
      const entry = ownedBy(rec, id!)
      if (!entry) return notFound(id!)
      if (tail === '/input_items') {
        const data = entry.input
        return json({ object: 'list', data, first_id: (data[0] as any)?.id ?? null, last_id: (data.at(-1) as any)?.id ?? null, has_more: false }, 200, openaiHeaders())
      }
      if (tail === '/cancel') {
        if (!entry.response.background) return json(openaiError(400, 'invalid_request_error', 'Only responses created with background=true can be cancelled.', null, null), 400, openaiHeaders())
        entry.response = { ...entry.response, status: 'cancelled' }
        return json(entry.response, 200, openaiHeaders())
      }
      if (rec.method === 'DELETE') {
        stored.delete(id!)
        return json({ id, object: 'response', deleted: true }, 200, openaiHeaders())
      }
      return json(entry.response, 200, openaiHeaders())
    },
    compact(rec: RecordedRequest, plan: Plan): Response {
      const previous = rec.json?.previous_response_id
      if (typeof previous === 'string' && !ownedBy(rec, previous))
        return json(openaiError(400, 'invalid_request_error', `Previous response with id '${previous}' not found.`, 'previous_response_id', 'previous_response_not_found'), 400, openaiHeaders())
      const output = [{ id: 'cmp_' + randomHex(48), type: 'compaction', encrypted_content: 'gAAAA' + randomHex(64) }]
      return json({ id: 'resp_' + randomHex(48), object: 'response.compaction', created_at: nowSeconds(), output, usage: responseUsage(plan) }, 200, openaiHeaders())
    },
  }
}
