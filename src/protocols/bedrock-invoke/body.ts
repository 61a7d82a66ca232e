/**
 * An Anthropic Messages body as Bedrock's InvokeModel takes it: no `model` (it is in the path) and no `stream`
 * (the operation says it), `anthropic_version: "bedrock-2023-05-31"`, the betas in an `anthropic_beta` array
 * instead of the `anthropic-beta` header. Bedrock validates the body against a schema and refuses any other
 * top-level key ("extraneous key [metadata] is not permitted"), and refuses a beta it does not know with
 * "invalid beta flag"; both are dropped here with a warning naming them, so Claude Code keeps working.
 */
import { InvalidWireError, isRecord } from '../../ir/index.ts'

const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31'

/** Top-level fields Bedrock's Anthropic schema accepts (besides `anthropic_version` and `anthropic_beta`). */
export const BEDROCK_FIELDS: ReadonlySet<string> = new Set([
  'max_tokens',
  'messages',
  'system',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'context_management',
])

/** Betas Bedrock accepts in `anthropic_beta` (AWS's list for Claude on Bedrock; a model may accept fewer). */
export const BEDROCK_BETAS: ReadonlySet<string> = new Set([
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'computer-use-2025-11-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
  'compact-2026-01-12',
])

function betasOf(header: string | undefined, inBody: unknown): string[] {
  const fromHeader = (header ?? '').split(',').map((b) => b.trim())
  const fromBody = Array.isArray(inBody) ? inBody.filter((b): b is string => typeof b === 'string') : []
  return [...new Set([...fromHeader, ...fromBody].filter((b) => b !== ''))]
}

/**
 * The body to send to `/model/{model}/invoke` or `/invoke-with-response-stream`, as JSON text. `anthropicBeta` is
 * the client's `anthropic-beta` header. Throws `InvalidWireError` when the body is not a JSON object.
 */
export function bedrockInvokeBody(body: string | Record<string, unknown>, warnings: string[], anthropicBeta?: string): string {
  let source: unknown = body
  if (typeof body === 'string') {
    try {
      source = JSON.parse(body)
    } catch {
      throw new InvalidWireError('the request body is not JSON')
    }
  }
  if (!isRecord(source)) throw new InvalidWireError('the request body is not a JSON object')
  const out: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION }
  const dropped: string[] = []
  for (const [key, value] of Object.entries(source)) {
    // model and stream travel in the path; the version is Bedrock's own
    if (key === 'model' || key === 'stream' || key === 'anthropic_version' || key === 'anthropic_beta') continue
    if (BEDROCK_FIELDS.has(key)) out[key] = value
    else dropped.push(key)
  }
  const betas = betasOf(anthropicBeta, source.anthropic_beta)
  const unsupported = betas.filter((b) => !BEDROCK_BETAS.has(b))
  const supported = betas.filter((b) => BEDROCK_BETAS.has(b))
  if (supported.length) out.anthropic_beta = supported
  if (Array.isArray(out.messages) && out.messages.some((m) => isRecord(m) && m.role === 'system')) out.messages = systemTurnsAsUser(out.messages, warnings)
  if (dropped.length) warnings.push(`${dropped.join(', ')}: not accepted by Bedrock, dropped`)
  if (unsupported.length) warnings.push(`anthropic-beta: ${unsupported.join(', ')} not supported by Bedrock, dropped`)
  return JSON.stringify(out)
}

/** A message's content as blocks (a string is one text block). */
const blocksOf = (content: unknown): unknown[] => (Array.isArray(content) ? content : typeof content === 'string' && content ? [{ type: 'text', text: content }] : [])

/**
 * Bedrock takes no `mid-conversation-system` beta, so a `role: "system"` turn inside `messages` (Claude Code sends
 * one) is refused there: it becomes user text in a `<system-reminder>`, as the Anthropic encoder sends it, merged
 * into the user turn next to it so the roles still alternate.
 */
function systemTurnsAsUser(messages: unknown[], warnings: string[]): unknown[] {
  const out: unknown[] = []
  let joinNext = false
  const appendToLast = (blocks: unknown[]) => {
    const last = out.at(-1) as Record<string, unknown>
    out[out.length - 1] = { ...last, content: [...blocksOf(last.content), ...blocks] }
  }
  messages.forEach((m, i) => {
    const last = out.at(-1)
    if (!isRecord(m) || m.role !== 'system') {
      // a user turn right after a reminder joins it
      if (joinNext && isRecord(m) && m.role === 'user') appendToLast(blocksOf(m.content))
      else out.push(m)
      joinNext = false
      return
    }
    warnings.push(`messages[${i}]: a system turn sent as user text (Bedrock takes no mid-conversation system messages)`)
    const reminders = blocksOf(m.content).flatMap((b) => (isRecord(b) && typeof b.text === 'string' && b.text ? [{ type: 'text', text: `<system-reminder>\n${b.text}\n</system-reminder>` }] : []))
    if (reminders.length === 0) return
    if (isRecord(last) && last.role === 'user') appendToLast(reminders)
    else out.push({ role: 'user', content: reminders })
    joinNext = true
  })
  return out
}
