import type { PassthroughContext, PassthroughPatch } from '../types.ts'

/**
 * Gemini carries the model in the URL: a passed-through body goes on unchanged, but for metering's output cap when
 * the client set none, set in the generation config it sent (in its spelling) or a new one.
 */
export function passthroughPatch({ body, outputCap }: PassthroughContext): PassthroughPatch {
  const patch: Record<string, unknown> = {}
  if (outputCap !== undefined) {
    const snake = body.generationConfig === undefined && isObject(body.generation_config)
    const key = snake ? 'generation_config' : 'generationConfig'
    const config = isObject(body[key]) ? body[key] : {}
    patch[key] = { ...config, [snake ? 'max_output_tokens' : 'maxOutputTokens']: outputCap }
  }
  return { patch, headers: {}, dropUsageChunk: false, warnings: [] }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

export function probeBody(): Record<string, unknown> {
  return { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 1 } }
}
