import { converted, newId, toolNames, type AssistantPart, type Converted, type IrRequest, type IrResponse } from '../../ir/index.ts'
import { wrapSignature } from '../envelope.ts'
import { rec } from '../shared.ts'
import { statusForFinish, usageToResponses } from './maps.ts'

const P = 'openai-responses'

export function responseId(id: string): string {
  return id.startsWith('resp_') ? id : newId('resp_')
}

/** `encrypted_content` shown to a Responses client: the real one for Responses reasoning, an envelope otherwise. */
export function clientEncrypted(p: { origin?: string; signature?: string; encrypted?: string; id?: string; redacted?: boolean }): string | undefined {
  if (p.origin === P) return p.encrypted
  if (!p.signature && !p.encrypted) return undefined
  return wrapSignature({ origin: p.origin ?? 'unknown', signature: p.signature, encrypted: p.encrypted })
}

export function reasoningItem(id: string, text: string, p: Parameters<typeof clientEncrypted>[0]): Record<string, unknown> {
  const item: Record<string, unknown> = { id, type: 'reasoning', summary: text ? [{ type: 'summary_text', text }] : [] }
  const enc = clientEncrypted(p)
  if (enc) item.encrypted_content = enc
  return item
}

/**
 * A tool call output item. `namespace`: the call targets a member of a `namespace` tool; the Responses API
 * names such calls by the member's `name` plus the item's `namespace` field ("The namespace of the function
 * to run", ResponseFunctionToolCall in the OpenAI API reference).
 */
export function functionCallItem(itemId: string, callId: string, name: string, args: string, status = 'completed', custom = false, namespace?: string): Record<string, unknown> {
  return custom
    ? { id: itemId, type: 'custom_tool_call', status, call_id: callId, name, input: args }
    : { id: itemId, type: 'function_call', status, arguments: args, call_id: callId, name, ...(namespace ? { namespace } : {}) }
}

export function messageItem(id: string, text: string, status = 'completed'): Record<string, unknown> {
  return { id, type: 'message', status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] }
}

/** The envelope of a response object (everything but output and usage), echoing the client's settings. */
export function responseShell(id: string, model: string, created: number, request?: IrRequest): Record<string, unknown> {
  const own = rec(request?.providerOptions[P])
  return {
    id,
    object: 'response',
    created_at: created,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: request?.maxOutputTokens ?? null,
    model,
    output: [],
    parallel_tool_calls: request?.parallelToolCalls ?? true,
    previous_response_id: own.previous_response_id ?? null,
    reasoning: { effort: request?.reasoning?.effort ?? null, summary: request?.reasoning?.summary ?? null },
    store: own.store ?? false,
    temperature: request?.sampling.temperature ?? null,
    text: { format: { type: 'text' } },
    tool_choice: request?.toolChoice ? (request.toolChoice.type === 'tool' ? { type: 'function', name: request.toolChoice.name } : request.toolChoice.type) : 'auto',
    tools: [],
    top_p: request?.sampling.topP ?? null,
    usage: null,
    metadata: own.metadata ?? {},
  }
}

/** `request`: the client's request; tool calls an upstream made under flat names get their namespace back. */
function outputItems(parts: AssistantPart[], request?: IrRequest): Record<string, unknown>[] {
  const names = toolNames(request?.tools ?? [])
  const out: Record<string, unknown>[] = []
  let msg: Record<string, unknown> | undefined
  for (const p of parts) {
    if (p.type !== 'text') msg = undefined
    const po = rec(p.providerOptions?.[P])
    switch (p.type) {
      case 'text':
        if (p.text === '') break
        if (!msg) {
          msg = messageItem(newId('msg_'), '')
          msg.content = []
          out.push(msg)
        }
        ;(msg.content as unknown[]).push({ type: 'output_text', text: p.text, annotations: [], logprobs: [] })
        break
      case 'reasoning':
        out.push(reasoningItem(p.origin === P && p.id ? p.id : newId('rs_'), p.text, p))
        break
      case 'tool-call': {
        const n = p.namespace ? { name: p.name, namespace: p.namespace } : names.parse(p.name)
        out.push(functionCallItem(typeof po.id === 'string' ? po.id : newId('fc_'), p.id, n.name, p.arguments, 'completed', po.type === 'custom_tool_call', n.namespace))
        break
      }
    }
  }
  return out
}

/** IR → Responses response object for a client. */
export function encodeResponse(res: IrResponse, request?: IrRequest): Converted<Record<string, unknown>> {
  const warnings: string[] = []
  if (res.parts.some((p) => p.type === 'image')) warnings.push('image output cannot be shown to a Responses client, dropped')
  const body = responseShell(responseId(res.id), request?.model ?? res.model, res.created ?? Math.floor(Date.now() / 1000), request)
  const st = statusForFinish(res.finish)
  body.status = st.status
  if (st.incomplete) body.incomplete_details = { reason: st.incomplete }
  if (st.status === 'failed') body.error = { code: 'server_error', message: 'upstream failed' }
  body.output = outputItems(res.parts, request)
  body.usage = usageToResponses(res.usage)
  return converted(body, warnings)
}
