import type { TSchema } from '@sinclair/typebox'
import { ValidationError } from 'elysia'
import { assertJsonDepth } from '../../plugins/json-depth'
import { compiledSchema } from '../../protocols/schema-check'

/**
 * A relay route's body or headers checked against their schema by hand, not declared as the route's
 * `body`/`headers`: Elysia would first rebuild the value through its normalizer (a deep copy of every body,
 * which also bends wrong types: a string `messages` was reported as `messages.0.role`) and turn all headers
 * into an object. Failures are Elysia's own ValidationError, so they render exactly as declared schemas do.
 */
export function wireCheck(type: 'body' | 'headers', schema: TSchema): (value: unknown) => void {
  let compiled: ReturnType<typeof compiledSchema> | undefined
  return (value) => {
    compiled ??= compiledSchema(schema) // compiled on first use, shared with the protocol's decoder
    if (compiled.Check(value)) return
    assertJsonDepth(value) // only on failure: Elysia's ValidationError pretty-prints the value, quadratic in its depth
    throw new ValidationError(type, compiled, value)
  }
}
