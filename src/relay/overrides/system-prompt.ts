import type { UpstreamProtocolId } from '../../protocols/types'

/**
 * new-api's channel `system_prompt` (in `setting`): added where the request has none; where it has one, put in
 * front of it only with `system_prompt_override` (new-api's "append to the user's system prompt"), else left alone.
 * Applied to the body as the upstream's protocol writes the system prompt.
 */
export interface SystemPrompt {
  text: string
  /** the request's own system prompt gets the channel's in front of it */
  override: boolean
}

export function applySystemPrompt(body: Record<string, unknown>, protocol: UpstreamProtocolId, prompt: SystemPrompt): void {
  switch (protocol) {
    case 'openai-chat':
      return chatMessages(body, prompt)
    case 'openai-responses':
      body.instructions = joined(body.instructions, prompt)
      return
    case 'gemini':
      return geminiInstruction(body, prompt)
    case 'bedrock-converse':
      return blocks(body, 'system', { text: prompt.text }, prompt)
    case 'dify': {
      // the conversation is one `query`, a system prompt its leading `SYSTEM:` turn (protocols/dify)
      const query = typeof body.query === 'string' ? body.query : ''
      if (!query.startsWith('SYSTEM: \n') || prompt.override) body.query = `SYSTEM: \n${prompt.text}\n${query}`
      return
    }
    default: // Anthropic's Messages, also inside Bedrock's and Vertex's envelopes
      if (Array.isArray(body.system)) return blocks(body, 'system', { type: 'text', text: prompt.text }, prompt)
      body.system = joined(body.system, prompt)
  }
}

/** A text system prompt: the channel's alone, or in front of the request's on override. */
function joined(current: unknown, prompt: SystemPrompt): unknown {
  if (typeof current !== 'string' || current === '') return current === undefined || current === null || current === '' ? prompt.text : current
  return prompt.override ? `${prompt.text}\n${current}` : current
}

function blocks(body: Record<string, unknown>, field: string, block: Record<string, unknown>, prompt: SystemPrompt): void {
  const current = body[field]
  if (!Array.isArray(current) || current.length === 0) body[field] = [block]
  else if (prompt.override) body[field] = [block, ...current]
}

function chatMessages(body: Record<string, unknown>, prompt: SystemPrompt): void {
  const messages = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : []
  const system = messages.find((m) => m && (m.role === 'system' || m.role === 'developer'))
  if (!system) {
    body.messages = [{ role: 'system', content: prompt.text }, ...messages]
    return
  }
  if (!prompt.override) return
  if (Array.isArray(system.content)) system.content = [{ type: 'text', text: prompt.text }, ...(system.content as unknown[])]
  else system.content = `${prompt.text}\n${typeof system.content === 'string' ? system.content : ''}`
}

function geminiInstruction(body: Record<string, unknown>, prompt: SystemPrompt): void {
  const field = 'system_instruction' in body && !('systemInstruction' in body) ? 'system_instruction' : 'systemInstruction'
  const current = body[field] as { parts?: unknown[] } | undefined
  const parts = current && Array.isArray(current.parts) ? current.parts : []
  if (parts.length === 0) body[field] = { ...current, parts: [{ text: prompt.text }] }
  else if (prompt.override) body[field] = { ...current, parts: [{ text: prompt.text }, ...parts] }
}
