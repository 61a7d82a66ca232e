import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ValidationError } from 'elysia'

/**
 * A relay route's body or headers checked against their schema by hand, not declared as the route's
 * `body`/`headers`: Elysia would first rebuild the value through its normalizer (a deep copy of every body,
 * which also bends wrong types: a string `messages` was reported as `messages.0.role`) and turn all headers
 * into an object. Failures are Elysia's own ValidationError, so they render exactly as declared schemas do.
 */
export function wireCheck(type: 'body' | 'headers', schema: TSchema): (value: unknown) => void {
  const compiled = TypeCompiler.Compile(schema)
  return (value) => {
    if (!compiled.Check(value)) throw new ValidationError(type, compiled, value)
  }
}
