/**
 * IR → a Converse / ConverseStream request body. The model and the stream flag are not in the body: they are in
 * the path (`/model/{model}/converse` or `/converse-stream`). Model-specific settings (Anthropic thinking and
 * top_k, Nova and gpt-oss reasoning effort) go in `additionalModelRequestFields`.
 */
import {
  clientToolIndex,
  converted,
  splitLeadingSystem,
  toolNames,
  UnsupportedFeatureError,
  type Converted,
  type IrRequest,
  type Message,
} from '../../ir/index.ts'
import { DEFAULT_MAX_TOKENS, JSON_OBJECT_INSTRUCTION } from '../anthropic/encode-request.ts'
import { foreignOpaque, rec } from '../shared.ts'
import { assistantBlocks, cachePointAfter, textBlocks, toolResultBlock, userBlocks, type Block } from './encode-content.ts'
import { effortLevel, modelFamily, P, type ModelFamily } from './maps.ts'

/** Thinking budgets for effort levels (the Anthropic encoder's table). */
const EFFORT_BUDGET: Record<string, number> = { minimal: 1024, low: 4096, medium: 10000, high: 24000, xhigh: 32000, max: 48000 }
const HOSTED_SEARCH = new Set(['web_search', 'web_search_preview', 'googleSearch', 'google_search'])

type Turn = { role: 'user' | 'assistant'; content: Block[] }

function encodeMessages(messages: Message[], names: ReturnType<typeof toolNames>, warnings: string[]): Turn[] {
  const out: Turn[] = []
  // Converse wants user and assistant turns to alternate: consecutive turns of one role are merged
  const push = (role: Turn['role'], blocks: Block[]) => {
    if (!blocks.length) return
    const last = out[out.length - 1]
    if (last?.role === role) last.content.push(...blocks)
    else out.push({ role, content: blocks })
  }
  messages.forEach((m, mi) => {
    const where = `messages[${mi}]`
    switch (m.role) {
      case 'system': {
        const blocks = m.content.flatMap((p) => textBlocks({ ...p, text: `<system-reminder>\n${p.text}\n</system-reminder>` }))
        if (blocks.length) warnings.push(`${where}: mid-conversation system message sent as a user text block`)
        push('user', blocks)
        break
      }
      case 'user':
        push('user', userBlocks(m.content, where, warnings))
        break
      case 'assistant':
        push('assistant', assistantBlocks(m.content, where, names, warnings))
        break
      case 'tool':
        push('user', m.content.flatMap((r, ri) => toolResultBlock(r, `${where}.content[${ri}]`, warnings)))
        break
      case 'opaque':
        if (m.protocol === P) push(m.raw.role === 'assistant' ? 'assistant' : 'user', [m.raw])
        else foreignOpaque(m, where, P, warnings)
        break
    }
  })
  return out
}

/** Reasoning and sampling fields one model family takes; returns whether Anthropic thinking is on. */
function familyFields(req: IrRequest, family: ModelFamily, inference: Record<string, unknown>, fields: Record<string, unknown>, warnings: string[]): boolean {
  const r = req.reasoning
  const on = r !== undefined && r.enabled !== false && r.effort !== 'none' && (r.enabled || r.adaptive || r.effort !== undefined || r.budgetTokens !== undefined)
  if (!on) return false
  if (family === 'nova') fields.reasoningConfig = { type: 'enabled', maxReasoningEffort: effortLevel(r.effort, r.budgetTokens) }
  else if (family === 'openai') fields.reasoning_effort = effortLevel(r.effort, r.budgetTokens)
  else if (family === 'other') warnings.push('reasoning: this model takes no reasoning settings through Bedrock Converse, dropped')
  if (family !== 'anthropic') return false
  if (r.adaptive) {
    fields.thinking = { type: 'adaptive' }
    return true
  }
  if (inference.maxTokens === undefined) {
    inference.maxTokens = DEFAULT_MAX_TOKENS
    warnings.push(`maxTokens: not given, using ${DEFAULT_MAX_TOKENS} (thinking needs a cap)`)
  }
  const max = inference.maxTokens as number
  const budget = Math.min(r.budgetTokens ?? EFFORT_BUDGET[r.effort ?? 'medium'] ?? 10000, max - 1)
  if (budget < 1024) {
    warnings.push(`thinking: maxTokens ${max} leaves no room for a thinking budget ≥ 1024, thinking disabled`)
    return false
  }
  fields.thinking = { type: 'enabled', budget_tokens: budget }
  return true
}

function encodeSampling(req: IrRequest, family: ModelFamily, thinking: boolean, inference: Record<string, unknown>, fields: Record<string, unknown>, warnings: string[]): void {
  const s = req.sampling
  if (s.temperature !== undefined) {
    if (thinking && s.temperature !== 1) warnings.push('temperature: not allowed with thinking, dropped')
    else inference.temperature = s.temperature
  }
  if (s.topP !== undefined) inference.topP = s.topP
  if (s.stop?.length) inference.stopSequences = s.stop
  if (s.topK !== undefined) {
    if (family === 'anthropic' && !thinking) fields.top_k = s.topK
    else warnings.push(`top_k: ${thinking ? 'not allowed with thinking' : 'not supported by this model on Bedrock Converse'}, dropped`)
  }
  if (s.seed !== undefined || s.frequencyPenalty !== undefined || s.presencePenalty !== undefined)
    warnings.push('seed/frequency_penalty/presence_penalty: not supported by Bedrock Converse, dropped')
}

function encodeTools(req: IrRequest, names: ReturnType<typeof toolNames>, messages: Turn[], warnings: string[]): Block | undefined {
  const tools: Block[] = []
  req.tools.forEach((t, i) => {
    const where = `tools[${clientToolIndex(req.tools, i)}]`
    if (t.kind === 'function') {
      const spec: Block = { name: names.wire(t.namespace, t.name) }
      if (t.description) spec.description = t.description
      spec.inputSchema = { json: Object.keys(t.parameters).length ? t.parameters : { type: 'object', properties: {} } }
      if (t.strict) spec.strict = true
      tools.push({ toolSpec: spec }, ...cachePointAfter(t))
    } else if (t.protocol === P) tools.push(t.raw)
    else if (HOSTED_SEARCH.has(t.type) || t.type.startsWith('web_search_')) warnings.push(`${where}: hosted ${t.type} tool is not available on Bedrock Converse, dropped`)
    else throw new UnsupportedFeatureError(`${where}: a ${t.protocol} "${t.type}" tool cannot be sent to a Bedrock Converse upstream`, where, P)
  })
  const history = new Set<string>()
  for (const m of messages) for (const b of m.content) if (b.toolUse) history.add(String(rec(b.toolUse).name))
  const usesTools = history.size > 0 || messages.some((m) => m.content.some((b) => b.toolResult))
  const tc = req.toolChoice
  if (tc?.type === 'none' && !usesTools) return undefined
  if (!tools.length) {
    if (!usesTools) return undefined
    // Bedrock refuses toolUse/toolResult blocks without a toolConfig: declare the tools the conversation used
    for (const name of history) tools.push({ toolSpec: { name, inputSchema: { json: { type: 'object', properties: {} } } } })
    warnings.push('tools: the conversation has tool calls but no tools were given; declared from the history')
    if (!tools.length) tools.push({ toolSpec: { name: 'tool', inputSchema: { json: { type: 'object', properties: {} } } } })
  }
  const config: Block = { tools }
  if (tc?.type === 'auto') config.toolChoice = { auto: {} }
  else if (tc?.type === 'required') config.toolChoice = { any: {} }
  else if (tc?.type === 'tool') config.toolChoice = { tool: { name: tc.name } }
  else if (tc?.type === 'none') warnings.push('tool_choice: "none" has no Bedrock Converse equivalent; the tools stay offered')
  if (req.parallelToolCalls === false) warnings.push('parallel_tool_calls: false cannot be expressed in Bedrock Converse, dropped')
  return config
}

export function encodeRequest(req: IrRequest): Converted<Record<string, unknown>> {
  const warnings: string[] = []
  const own = rec(req.providerOptions[P])
  const body: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(own)) if (!k.startsWith('__')) body[k] = v
  const family = modelFamily(req.model)
  const names = toolNames(req.tools)

  const { system, messages } = splitLeadingSystem(req)
  const sys = system.flatMap((p) => textBlocks(p))
  const rf = req.responseFormat
  if (rf?.type === 'json_object') {
    sys.push({ text: JSON_OBJECT_INSTRUCTION })
    warnings.push('response_format: json_object has no Bedrock Converse equivalent, asked for in the system prompt')
  } else if (rf?.type === 'json_schema') {
    const jsonSchema: Block = { schema: JSON.stringify(rf.schema), name: rf.name }
    if (rf.description) jsonSchema.description = rf.description
    body.outputConfig = { ...rec(own.outputConfig), textFormat: { type: 'json_schema', structure: { jsonSchema } } }
  }
  if (sys.length) body.system = sys
  const turns = encodeMessages(messages, names, warnings)
  body.messages = turns

  const inference: Record<string, unknown> = { ...rec(own.inferenceConfig) }
  if (req.maxOutputTokens !== undefined) inference.maxTokens = req.maxOutputTokens
  const fields: Record<string, unknown> = { ...rec(own.additionalModelRequestFields) }
  const thinking = familyFields(req, family, inference, fields, warnings)
  encodeSampling(req, family, thinking, inference, fields, warnings)
  if (Object.keys(inference).length) body.inferenceConfig = inference
  if (Object.keys(fields).length) body.additionalModelRequestFields = fields

  const toolConfig = encodeTools(req, names, turns, warnings)
  if (toolConfig) body.toolConfig = toolConfig
  return converted(body, warnings)
}
