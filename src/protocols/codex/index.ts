/**
 * Codex with a ChatGPT sign-in (new-api type 57) as an upstream: OpenAI Responses carried to the ChatGPT backend's
 * Codex endpoint (`/backend-api/codex/responses`). Responses clients pass through; other clients are converted to
 * Responses. The backend answers only as a stream and is strict about its body (what `wrapBody` makes of it).
 */
import { openaiResponses } from '../openai-responses/index.ts'
import type { UpstreamProtocol } from '../types.ts'

/** Sampling and cap fields the Codex backend refuses (new-api drops them too): the subscription decides them. */
const REFUSED = ['max_output_tokens', 'temperature', 'top_p', 'frequency_penalty', 'presence_penalty'] as const

/**
 * The body the Codex backend accepts: always streamed, never stored, `instructions` present (empty when the client
 * gave none), `input` as a list of items (a bare string becomes one user message).
 */
function codexBody(body: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body, stream: true, store: false }
  if (typeof out.instructions !== 'string') out.instructions = out.instructions === undefined || out.instructions === null ? '' : out.instructions
  if (typeof out.input === 'string') out.input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: out.input }] }]
  for (const field of REFUSED) {
    if (out[field] === undefined) continue
    delete out[field]
    if (field !== 'max_output_tokens') warnings.push(`${field}: not accepted by the Codex backend, dropped`)
  }
  delete out.stream_options
  return out
}

export const codex: UpstreamProtocol & { id: 'codex' } = {
  id: 'codex',
  carries: 'openai-responses',
  streamsOnly: true,
  encodeRequest: openaiResponses.encodeRequest,
  decodeResponse: openaiResponses.decodeResponse,
  createStreamDecoder: openaiResponses.createStreamDecoder,
  parseError: openaiResponses.parseError,
  createUsageTap: openaiResponses.createUsageTap,
  usageFromBody: openaiResponses.usageFromBody,
  probeBody: (model) => codexBody({ model, input: 'hi' }, []),
  wrapBody: (body, headers, warnings) => {
    const out: Record<string, string> = {}
    // Codex groups a conversation's turns by its session id (its prompt cache): kept when the client sent one
    const session = headers?.get('session_id') ?? headers?.get('session-id')
    if (session) out.session_id = session
    return { text: JSON.stringify(codexBody(body, warnings)), headers: out }
  },
}
