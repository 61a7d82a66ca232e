import { BadRequestError } from '../../errors'
import type { Meter } from '../../relay/meter/meter'
import { objectBody, optionalBoolean, optionalInteger, optionalString, requiredString } from '../fields'
import { textsMeter } from '../text-meter'
import type { OperationRequest } from '../types'

export interface CompletionsRequest extends OperationRequest {
  /** the prompts as text; empty when the client sent token ids */
  prompts: string[]
  /** prompts as token ids (OpenAI-dialect upstreams only) */
  tokenPrompts?: number[][]
  suffix?: string
  maxTokens?: number
  echo: boolean
  logprobs?: number
  /** completions per prompt: the larger of `n` and `best_of` (each is generated, and billed) */
  choices: number
  /** the client asked for the usage chunk (`stream_options.include_usage`) */
  includeUsage: boolean
  /** the client's own JSON body, sent on to OpenAI-dialect upstreams with only `model` (and stream usage) changed */
  body: Record<string, unknown>
}

const MAX_PROMPTS = 2048

/**
 * The legacy `POST /v1/completions`: `prompt` a string (empty allowed: fill-in-the-middle at the start of a file),
 * strings, token ids or arrays of them; `suffix` for fill-in-the-middle. Reserves the prompt and suffix tokens plus
 * `max_tokens` (or DefaultMaxOutputTokens) for every choice of every prompt.
 */
export function decodeCompletions(raw: unknown): CompletionsRequest {
  const body = objectBody(raw)
  const model = requiredString(body, 'model')
  const suffix = optionalString(body, 'suffix')
  const maxTokens = optionalInteger(body, 'max_tokens', 0, 10_000_000)
  const n = optionalInteger(body, 'n', 1, 128) ?? 1
  const bestOf = optionalInteger(body, 'best_of', 1, 128) ?? 1
  const logprobs = optionalInteger(body, 'logprobs', 0, 20)
  const echo = optionalBoolean(body, 'echo') ?? false
  const stream = optionalBoolean(body, 'stream') ?? false
  const includeUsage = stream && streamUsageAsked(body.stream_options)
  const { prompts, tokenPrompts } = promptsOf(body.prompt)
  const choices = Math.max(n, bestOf)
  const count = tokenPrompts?.length ?? prompts.length
  // every choice of every prompt may take max_tokens (or DefaultMaxOutputTokens): metering reserves each
  const meter: Meter = { ...promptMeter(model, prompts, tokenPrompts, suffix, stream, maxTokens), choices: { count: choices, field: bestOf > n ? 'best_of' : 'n' }, outputs: choices * count }
  return { model, stream, meter, prompts, tokenPrompts, suffix, maxTokens, echo, logprobs, choices, includeUsage, body }
}

function streamUsageAsked(options: unknown): boolean {
  if (options === undefined || options === null) return false
  if (typeof options !== 'object' || Array.isArray(options)) throw new BadRequestError('stream_options must be an object', 'stream_options')
  const include = (options as { include_usage?: unknown }).include_usage
  if (include !== undefined && include !== null && typeof include !== 'boolean') throw new BadRequestError('stream_options.include_usage must be true or false', 'stream_options.include_usage')
  return include === true
}

function promptsOf(prompt: unknown): { prompts: string[]; tokenPrompts?: number[][] } {
  if (typeof prompt === 'string') return { prompts: [prompt] }
  if (!Array.isArray(prompt) || prompt.length === 0) throw new BadRequestError('prompt is required: a string, an array of strings, or token ids', 'prompt')
  if (typeof prompt[0] === 'number') return { prompts: [], tokenPrompts: [tokenIds(prompt, 'prompt')] }
  if (prompt.length > MAX_PROMPTS) throw new BadRequestError(`prompt holds ${prompt.length} items; at most ${MAX_PROMPTS} are allowed`, 'prompt')
  if (Array.isArray(prompt[0])) return { prompts: [], tokenPrompts: prompt.map((p, i) => tokenIds(p, `prompt[${i}]`)) }
  prompt.forEach((p, i) => {
    if (typeof p !== 'string') throw new BadRequestError(`prompt[${i}] must be a string, as the items before it are`, `prompt[${i}]`)
  })
  return { prompts: prompt as string[] }
}

function tokenIds(value: unknown, param: string): number[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((n) => Number.isInteger(n) && n >= 0)) {
    throw new BadRequestError(`${param} must be a string, or a non-empty array of token ids`, param)
  }
  return value as number[]
}

function promptMeter(model: string, prompts: string[], tokenPrompts: number[][] | undefined, suffix: string | undefined, stream: boolean, maxOutput: number | undefined): Meter {
  const texts = suffix ? [...prompts, suffix] : prompts
  const ids = tokenPrompts?.reduce((n, p) => n + p.length, 0) ?? 0
  return { ...textsMeter(model, texts, ids), stream, maxOutput }
}
