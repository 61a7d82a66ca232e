import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>()

/**
 * One compiled checker per schema, compiled on first use: the relay route's wire check and the protocol's
 * decoder share it, and a gateway that never sees a protocol never compiles its schema.
 */
export function compiledSchema(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema)
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)))
  return check
}

// The body that last passed a schema, and which: the route checks a body and hands it to the decoder in
// the same tick, so the decoder need not check it again (1.6–5 µs a request). One slot, no weak maps: a
// body that is not this exact object, or a different schema, is simply checked.
let passedBody: unknown
let passedSchema: TSchema | undefined

export function notePassed(body: unknown, schema: TSchema): void {
  passedBody = body
  passedSchema = schema
}

/** Whether `body` is the one that just passed `schema`; the slot is emptied either way. */
export function takePassed(body: unknown, schema: TSchema): boolean {
  const passed = passedBody === body && passedSchema === schema
  passedBody = undefined
  passedSchema = undefined
  return passed
}
