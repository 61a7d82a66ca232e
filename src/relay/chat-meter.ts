import type { IrRequest } from '../ir'
import type { Meter } from './meter'
import { countRequestTokens, estimateRequestTokens } from './tokenize'

/** A chat request's meter: prompt tokens (exact for short prompts, a byte bound for long ones) plus its output cap. */
export function chatMeter(ir: IrRequest, rawBody: string): Meter {
  const { tokens, exact } = estimateRequestTokens(ir, Buffer.byteLength(rawBody))
  return { model: ir.model, stream: ir.stream, unit: 'token', input: tokens, exact, maxOutput: ir.maxOutputTokens, count: () => countRequestTokens(ir) }
}
