/**
 * What the fake Bedrock runtime answers: its validation of Converse and Anthropic-invoke bodies (with Bedrock's
 * own messages), Converse bodies and ConverseStream frames, and Anthropic answers wrapped as Bedrock wraps them.
 */
import { eventFrame, exceptionFrame } from '../../../src/protocols/framing/aws-event-stream.ts'
import { BEDROCK_BETAS } from '../../../src/protocols/bedrock-invoke/body.ts'
import { anthropic } from './anthropic'
import { isObject, json, randomString } from './shared'
import type { Ctx, Plan } from './types'

/** runtime operations, and the control plane's lists */
export type BedrockOperation = 'converse' | 'converse-stream' | 'invoke' | 'invoke-with-response-stream' | 'foundation-models' | 'inference-profiles'

const ERRORS: Record<number, [string, string]> = {
  400: ['ValidationException', 'The provided request is not valid'],
  403: ['AccessDeniedException', "You don't have access to the model with the specified model ID."],
  404: ['ResourceNotFoundException', 'The requested resource could not be found.'],
  408: ['ModelTimeoutException', 'Model has timed out in processing the request.'],
  429: ['ThrottlingException', 'Too many requests, please wait before trying again.'],
  500: ['InternalServerException', 'The server encountered an internal error while processing the request.'],
  503: ['ServiceUnavailableException', 'Bedrock is unable to process your request.'],
}

export const requestId = () => `${randomString(8)}-${randomString(4)}-${randomString(4)}-${randomString(4)}-${randomString(12)}`.toLowerCase()

/** Bedrock's error reply: `{"message": …}` with the type in `x-amzn-ErrorType`. */
export function bedrockError(status: number, type?: string, message?: string, headers: Record<string, string> = {}): Response {
  const [t, m] = ERRORS[status] ?? (status >= 500 ? ERRORS[500]! : ERRORS[400]!)
  const errorType = type ?? t
  return json({ message: message ?? m }, status, {
    'x-amzn-errortype': `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': requestId(),
    ...headers,
  })
}

const invalid = (message: string) => bedrockError(400, 'ValidationException', message)
const malformed = (errors: string[]) => invalid(`Malformed input request: ${errors.join('')}, please reformat your input and try again.`)

const CONVERSE_FIELDS = new Set(['messages', 'system', 'inferenceConfig', 'toolConfig', 'guardrailConfig', 'additionalModelRequestFields', 'promptVariables', 'additionalModelResponseFieldPaths', 'requestMetadata', 'performanceConfig', 'outputConfig', 'serviceTier'])

export function validateConverse(b: any): Response | undefined {
  if (!isObject(b)) return invalid('The request body is not a JSON object.')
  const extra = Object.keys(b).filter((k) => !CONVERSE_FIELDS.has(k))
  if (extra.length) return malformed(extra.map((k) => `#: extraneous key [${k}] is not permitted`))
  if (!Array.isArray(b.messages) || b.messages.length === 0) return invalid('A conversation must start with a user message. Try again with a conversation that starts with a user message.')
  let previousUses: string[] = []
  for (const [i, m] of b.messages.entries()) {
    if (!isObject(m) || (m.role !== 'user' && m.role !== 'assistant')) return invalid(`Value at 'messages.${i + 1}.member.role' failed to satisfy constraint: Member must satisfy enum value set: [user, assistant]`)
    if (m.role !== (i % 2 === 0 ? 'user' : 'assistant'))
      return invalid('A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.')
    if (!Array.isArray(m.content) || m.content.length === 0) return invalid(`The content field in the Message object at messages.${i} is empty. Add a ContentBlock object to the content field and try again.`)
    for (const [j, block] of m.content.entries()) {
      if (typeof block?.text === 'string' && block.text.trim() === '')
        return invalid(`The text field in the ContentBlock object at messages.${i}.content.${j} is blank. Add text to the text field, and try again.`)
      if ((block?.toolUse || block?.toolResult) && !isObject(b.toolConfig))
        return invalid('The toolConfig field must be defined when using toolUse and toolResult content blocks.')
      if (block?.toolResult && !previousUses.includes(block.toolResult.toolUseId))
        return invalid(`The toolResult blocks at messages.${i}.content contain a toolUseId that the previous turn's toolUse blocks do not.`)
    }
    previousUses = m.content.filter((c: any) => c?.toolUse).map((c: any) => c.toolUse.toolUseId)
  }
  const max = b.inferenceConfig?.maxTokens
  if (max !== undefined && (!Number.isInteger(max) || max < 1)) return invalid("Value at 'inferenceConfig.maxTokens' failed to satisfy constraint: Member must have value greater than or equal to 1")
  const budget = b.additionalModelRequestFields?.thinking?.budget_tokens
  if (budget !== undefined && max !== undefined && !(budget < max))
    return invalid('The model returned the following errors: `max_tokens` must be greater than `thinking.budget_tokens`.')
  return undefined
}

const INVOKE_FIELDS = new Set(['anthropic_version', 'anthropic_beta', 'max_tokens', 'messages', 'system', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'tools', 'tool_choice', 'thinking', 'output_config', 'context_management'])

export function validateInvoke(b: any): Response | undefined {
  if (!isObject(b)) return malformed(['#: expected type: JSONObject'])
  const errors = Object.keys(b).filter((k) => !INVOKE_FIELDS.has(k)).map((k) => `#: extraneous key [${k}] is not permitted`)
  for (const k of ['anthropic_version', 'max_tokens', 'messages']) if (!(k in b)) errors.push(`#: required key [${k}] not found`)
  if (errors.length) return malformed(errors)
  if (b.anthropic_version !== 'bedrock-2023-05-31') return invalid('Invalid API version')
  if (b.anthropic_beta !== undefined && (!Array.isArray(b.anthropic_beta) || b.anthropic_beta.some((x: unknown) => !BEDROCK_BETAS.has(String(x)))))
    return invalid('invalid beta flag')
  if (b.thinking?.type === 'enabled' && !(b.thinking.budget_tokens < b.max_tokens))
    return invalid('The model returned the following errors: `max_tokens` must be greater than `thinking.budget_tokens`.')
  for (const [i, m] of (Array.isArray(b.messages) ? b.messages : []).entries()) {
    // Bedrock's schema knows two roles: no mid-conversation system turn
    if (m?.role !== 'user' && m?.role !== 'assistant') return malformed([`#/messages/${i}/role: ${String(m?.role)} is not a valid enum value`])
    for (const [j, block] of (Array.isArray(m?.content) ? m.content : []).entries())
      if (block?.type === 'thinking' && !block.signature) return invalid(`The model returned the following errors: messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`)
  }
  return undefined
}

const STOP: Record<Plan['finish'], string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'content_filtered' }
const pad = () => randomString(1 + Math.floor(Math.random() * 30))
const toolIds = (p: Plan) => p.tools.map((t) => t.id ?? 'tooluse_' + randomString(22))

/** Reasoning comes back only when the request turned it on, as on Bedrock. */
function reasoningOn(body: any): boolean {
  const f = body?.additionalModelRequestFields
  return isObject(f) && ((isObject(f.thinking) && f.thinking.type !== 'disabled') || isObject(f.reasoningConfig) || f.reasoning_effort !== undefined)
}

function converseUsage(p: Plan) {
  const u = p.usage
  return { inputTokens: u.input, outputTokens: u.output, totalTokens: u.input + u.output + u.cacheRead + u.cacheWrite, cacheReadInputTokens: u.cacheRead, cacheWriteInputTokens: u.cacheWrite }
}

export function converseBody({ body, plan: p }: Ctx) {
  const content: unknown[] = []
  if (p.reasoning.length && reasoningOn(body)) content.push({ reasoningContent: { reasoningText: { text: p.reasoning.join(''), ...(p.signature ? { signature: p.signature } : {}) } } })
  if (p.text.length) content.push({ text: p.text.join('') })
  const ids = toolIds(p)
  p.tools.forEach((t, i) => content.push({ toolUse: { toolUseId: ids[i], name: t.name, input: JSON.parse(t.args) } }))
  return { output: { message: { role: 'assistant', content } }, stopReason: p.rawFinish ?? STOP[p.finish], usage: converseUsage(p), metrics: { latencyMs: 321 } }
}

export function converseFrames({ body, plan: p }: Ctx): Uint8Array[] {
  const out = [eventFrame('messageStart', { role: 'assistant', p: pad() })]
  let index = 0
  const delta = (d: object) => out.push(eventFrame('contentBlockDelta', { contentBlockIndex: index, delta: d, p: pad() }))
  const stop = () => out.push(eventFrame('contentBlockStop', { contentBlockIndex: index++, p: pad() }))
  if (p.reasoning.length && reasoningOn(body)) {
    for (const text of p.reasoning) delta({ reasoningContent: { text } })
    if (p.signature) delta({ reasoningContent: { signature: p.signature } })
    stop()
  }
  if (p.text.length) {
    for (const text of p.text) delta({ text })
    stop()
  }
  const ids = toolIds(p)
  p.tools.forEach((t, i) => {
    out.push(eventFrame('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: ids[i], name: t.name } }, p: pad() }))
    for (const input of t.fragments) delta({ toolUse: { input } })
    stop()
  })
  out.push(eventFrame('messageStop', { stopReason: p.rawFinish ?? STOP[p.finish], p: pad() }))
  out.push(eventFrame('metadata', { usage: converseUsage(p), metrics: { latencyMs: 321 }, p: pad() }))
  return out
}

/** The Anthropic answer Bedrock's invoke returns (Bedrock's message ids start `msg_bdrk_`). */
export function invokeBody(ctx: Ctx) {
  return { ...(anthropic.body(ctx) as object), id: 'msg_bdrk_01' + randomString(22) }
}

/** Anthropic's stream events, each base64 in a `chunk` frame; the last carries Bedrock's invocation metrics. */
export function invokeFrames(ctx: Ctx): Uint8Array[] {
  const datas = anthropic.frames(ctx).map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)))
  const last = datas.at(-1)
  if (last?.type === 'message_stop') {
    const u = ctx.plan.usage
    last['amazon-bedrock-invocationMetrics'] = { inputTokenCount: u.input, outputTokenCount: u.output, invocationLatency: 654, firstByteLatency: 210 }
  }
  for (const d of datas) if (d.type === 'message_start') d.message.id = 'msg_bdrk_01' + randomString(22)
  return datas.map((d) => eventFrame('chunk', { bytes: Buffer.from(JSON.stringify(d)).toString('base64'), p: pad() }))
}

/** A stream that fails inside: Converse says `messageStart` first, invoke fails at once. */
export function streamErrorFrames(operation: BedrockOperation, type = 'serviceUnavailableException', message = 'Bedrock is unable to process your request.'): Uint8Array[] {
  const failure = exceptionFrame(type, message)
  return operation === 'converse-stream' ? [eventFrame('messageStart', { role: 'assistant', p: pad() }), failure] : [failure]
}
