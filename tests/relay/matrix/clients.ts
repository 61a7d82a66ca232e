/**
 * One adapter per client protocol, each driving the official SDK (and its stream helper) and reading the
 * answer back into the same neutral shape, so the matrix can assert every pair with one set of checks.
 */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI, type Content, type GenerateContentResponse, type Part } from '@google/genai'
import OpenAI from 'openai'
import type { ProtocolId } from '../../../src/protocols/types'
import { TOOLS, type Kind } from './harness'

interface Turn {
  text: string
  reasoning: string
  calls: { id: string; name: string; args: unknown }[]
  /** the client's own stop signal: stop_reason, finish_reason, status or finishReason */
  finish: string | undefined
  /** usage in the client's own fields, named neutrally (see clientUsage) */
  usage: Record<string, number | undefined>
  /** the SDK's answer, for replaying it */
  raw: any
}

export interface MatrixClient {
  ask(model: string, stream: boolean, kind: Kind): Promise<Turn>
  /** sends the first turn back, with one result per tool call (or, without calls, a new user message), and asks again */
  answer(model: string, stream: boolean, first: Turn, results: string[], kind?: Kind): Promise<Turn>
  /** what `finish` reads after a plain answer and after tool calls */
  finish: { stop: string; tool: string }
}

const PROMPT = 'What is the weather and time in Paris?'
const SYSTEM = 'Be brief.'
const GO_ON = 'Go on.'

/** `fetchImpl`: the SDK's fetch (Anthropic's and OpenAI's take one; Gemini's uses the global one). */
export function matrixClient(protocol: ProtocolId, url: string, key: string, fetchImpl?: typeof fetch): MatrixClient {
  switch (protocol) {
    case 'anthropic':
      return anthropicClient(new Anthropic({ apiKey: key, baseURL: url, maxRetries: 0, fetch: fetchImpl }))
    case 'openai-chat':
      return chatClient(new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0, fetch: fetchImpl }))
    case 'openai-responses':
      return responsesClient(new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0, fetch: fetchImpl }))
    case 'gemini':
      return geminiClient(new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } }))
  }
}

function anthropicClient(sdk: Anthropic): MatrixClient {
  const params = (model: string, kind: Kind, messages: Anthropic.MessageParam[]): Anthropic.MessageCreateParamsNonStreaming => ({
    model, max_tokens: 4096, system: SYSTEM, messages,
    ...(kind === 'tool' ? { tools: TOOLS.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema })) } : {}),
    ...(kind === 'reasoning' ? { thinking: { type: 'enabled' as const, budget_tokens: 2048 } } : {}),
  })
  const run = async (p: Anthropic.MessageCreateParamsNonStreaming, stream: boolean): Promise<Turn> => {
    const m = stream ? await sdk.messages.stream(p).finalMessage() : await sdk.messages.create(p)
    const u = m.usage
    return {
      text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''),
      reasoning: m.content.map((b) => (b.type === 'thinking' ? b.thinking : '')).join(''),
      calls: m.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, args: b.input }] : [])),
      finish: m.stop_reason ?? undefined,
      usage: { input: u.input_tokens, cacheRead: u.cache_read_input_tokens ?? undefined, cacheWrite: u.cache_creation_input_tokens ?? undefined, output: u.output_tokens },
      raw: m,
    }
  }
  const first: Anthropic.MessageParam[] = [{ role: 'user', content: PROMPT }]
  return {
    finish: { stop: 'end_turn', tool: 'tool_use' },
    ask: (model, stream, kind) => run(params(model, kind, first), stream),
    answer: (model, stream, prev, results, kind = 'tool') =>
      run(params(model, kind, [
        ...first,
        { role: 'assistant', content: prev.raw.content },
        { role: 'user', content: prev.calls.length ? prev.calls.map((c, i) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: results[i]! })) : GO_ON },
      ]), stream),
  }
}

function chatClient(sdk: OpenAI): MatrixClient {
  type Params = OpenAI.ChatCompletionCreateParamsNonStreaming
  const params = (model: string, kind: Kind, messages: OpenAI.ChatCompletionMessageParam[]): Params => ({
    model, max_completion_tokens: 4096, messages: [{ role: 'system', content: SYSTEM }, ...messages],
    ...(kind === 'tool' ? { tools: TOOLS.map((t) => ({ type: 'function' as const, function: t })) } : {}),
    ...(kind === 'reasoning' ? { reasoning_effort: 'medium' as const } : {}),
  })
  const run = async (p: Params, stream: boolean): Promise<Turn> => {
    let reasoning = ''
    let c: OpenAI.ChatCompletion
    if (stream) {
      const s = sdk.chat.completions.stream({ ...(p as Omit<Params, 'stream'>), stream_options: { include_usage: true } })
      // the helper keeps only the last reasoning_content delta (unknown fields are assigned, not joined)
      s.on('chunk', (chunk) => (reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? ''))
      c = await s.finalChatCompletion()
    } else {
      c = await sdk.chat.completions.create(p)
      reasoning = (c.choices[0]!.message as { reasoning_content?: string }).reasoning_content ?? ''
    }
    const m = c.choices[0]!.message
    const u = c.usage
    return {
      text: m.content ?? '',
      reasoning,
      calls: (m.tool_calls ?? []).flatMap((t) => (t.type === 'function' ? [{ id: t.id, name: t.function.name, args: JSON.parse(t.function.arguments) }] : [])),
      finish: c.choices[0]!.finish_reason,
      usage: { input: u?.prompt_tokens, cacheRead: u?.prompt_tokens_details?.cached_tokens, output: u?.completion_tokens, reasoning: u?.completion_tokens_details?.reasoning_tokens },
      raw: c,
    }
  }
  const first: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }]
  return {
    finish: { stop: 'stop', tool: 'tool_calls' },
    ask: (model, stream, kind) => run(params(model, kind, first), stream),
    answer: (model, stream, prev, results, kind = 'tool') => {
      const m = prev.raw.choices[0].message as OpenAI.ChatCompletionMessage
      const reasoning = prev.reasoning ? { reasoning_content: prev.reasoning } : {}
      return run(params(model, kind, [
        ...first,
        { role: 'assistant', content: m.content, ...(m.tool_calls?.length ? { tool_calls: m.tool_calls } : {}), ...reasoning } as OpenAI.ChatCompletionAssistantMessageParam,
        ...(prev.calls.length ? prev.calls.map((c, i) => ({ role: 'tool' as const, tool_call_id: c.id, content: results[i]! })) : [{ role: 'user' as const, content: GO_ON }]),
      ]), stream)
    },
  }
}

function responsesClient(sdk: OpenAI): MatrixClient {
  type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming
  const params = (model: string, kind: Kind, input: OpenAI.Responses.ResponseInputItem[]): Params => ({
    model, instructions: SYSTEM, input, store: false, max_output_tokens: 4096,
    ...(kind === 'tool' ? { tools: TOOLS.map((t) => ({ type: 'function' as const, strict: false, ...t })) } : {}),
    ...(kind === 'reasoning' ? { reasoning: { effort: 'medium' as const, summary: 'auto' as const }, include: ['reasoning.encrypted_content' as const] } : {}),
  })
  const run = async (p: Params, stream: boolean): Promise<Turn> => {
    const r = stream ? await sdk.responses.stream(p as Omit<Params, 'stream'>).finalResponse() : await sdk.responses.create(p)
    const u = r.usage
    return {
      text: r.output.flatMap((o) => (o.type === 'message' ? o.content.map((c) => (c.type === 'output_text' ? c.text : '')) : [])).join(''),
      reasoning: r.output.flatMap((o) => (o.type === 'reasoning' ? o.summary.map((s) => s.text) : [])).join(''),
      calls: r.output.flatMap((o) => (o.type === 'function_call' ? [{ id: o.call_id, name: o.name, args: JSON.parse(o.arguments) }] : [])),
      finish: r.status,
      usage: { input: u?.input_tokens, cacheRead: u?.input_tokens_details?.cached_tokens, output: u?.output_tokens, reasoning: u?.output_tokens_details?.reasoning_tokens },
      raw: r,
    }
  }
  const first: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: PROMPT }]
  return {
    finish: { stop: 'completed', tool: 'completed' },
    ask: (model, stream, kind) => run(params(model, kind, first), stream),
    answer: (model, stream, prev, results, kind = 'tool') =>
      run(params(model, kind, [
        ...first,
        ...(prev.raw.output as OpenAI.Responses.ResponseInputItem[]),
        ...(prev.calls.length ? prev.calls.map((c, i) => ({ type: 'function_call_output' as const, call_id: c.id, output: results[i]! })) : [{ role: 'user' as const, content: GO_ON }]),
      ]), stream),
  }
}

function geminiClient(sdk: GoogleGenAI): MatrixClient {
  const config = (kind: Kind) => ({
    systemInstruction: SYSTEM,
    ...(kind === 'tool' ? { tools: [{ functionDeclarations: TOOLS.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }] } : {}),
    ...(kind === 'reasoning' ? { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } } : {}),
  })
  const run = async (model: string, kind: Kind, contents: Content[], stream: boolean): Promise<Turn> => {
    const chunks: GenerateContentResponse[] = []
    if (stream) for await (const chunk of await sdk.models.generateContentStream({ model, contents, config: config(kind) })) chunks.push(chunk)
    else chunks.push(await sdk.models.generateContent({ model, contents, config: config(kind) }))
    const parts: Part[] = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? [])
    const last = chunks.at(-1)
    const u = [...chunks].reverse().find((c) => c.usageMetadata)?.usageMetadata
    return {
      text: parts.map((p) => (p.text !== undefined && !p.thought ? p.text : '')).join(''),
      reasoning: parts.map((p) => (p.thought && p.text ? p.text : '')).join(''),
      calls: parts.flatMap((p) => (p.functionCall ? [{ id: p.functionCall.id ?? '', name: p.functionCall.name!, args: p.functionCall.args }] : [])),
      finish: last?.candidates?.[0]?.finishReason,
      usage: { input: u?.promptTokenCount, cacheRead: u?.cachedContentTokenCount, output: u?.candidatesTokenCount, reasoning: u?.thoughtsTokenCount },
      raw: { parts },
    }
  }
  const first: Content[] = [{ role: 'user', parts: [{ text: PROMPT }] }]
  return {
    finish: { stop: 'STOP', tool: 'STOP' },
    ask: (model, stream, kind) => run(model, kind, first, stream),
    answer: (model, stream, prev, results, kind = 'tool') =>
      run(model, kind, [
        ...first,
        { role: 'model', parts: prev.raw.parts },
        { role: 'user', parts: prev.calls.length ? prev.calls.map((c, i) => ({ functionResponse: { ...(c.id ? { id: c.id } : {}), name: c.name, response: { result: results[i] } } })) : [{ text: GO_ON }] },
      ], stream),
  }
}
