import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>()

/**
 * One compiled checker per schema, compiled on first use: the relay route's wire check and the protocol's
 * decoder share it (the decoder skips it for a body the route checked, `DecodeOptions.checked`), and a
 * gateway that never sees a protocol never compiles its schema.
 */
export function compiledSchema(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema)
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)))
  return check
}
