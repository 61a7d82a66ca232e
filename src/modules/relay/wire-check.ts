import { Kind, OptionalKind, Type, type TObject, type TSchema } from '@sinclair/typebox'
import { ValidationError } from 'elysia'
import { assertJsonDepth } from '../../plugins/json-depth'
import { compiledSchema } from '../../protocols/schema-check'
import { standInsOf } from '../../relay/body/request-body'

/**
 * A relay route's body or headers checked against their schema by hand, not declared as the route's
 * `body`/`headers`: Elysia would first rebuild the value through its normalizer (a deep copy of every body,
 * which also bends wrong types: a string `messages` was reported as `messages.0.role`) and turn all headers
 * into an object. Failures are Elysia's own ValidationError, so they render exactly as declared schemas do.
 *
 * A large chat body arrives as the view of its top-level fields (relay/body/request-body.ts): each field is checked
 * against its own schema, and a value too large to parse before dispatch only for its kind (array, object,
 * string); what is inside it is checked by the upstream on passthrough, or by the decoder when converted.
 */
export function wireCheck(type: 'body' | 'headers', schema: TSchema): (value: unknown) => void {
  let compiled: ReturnType<typeof compiledSchema> | undefined
  let fields: FieldCheck[] | undefined
  return (value) => {
    const standIns = standInsOf(value)
    if (standIns) return checkFields((fields ??= fieldChecks(schema)), value as Record<string, unknown>, standIns)
    compiled ??= compiledSchema(schema) // compiled on first use, shared with the protocol's decoder
    if (compiled.Check(value)) return
    assertJsonDepth(value) // only on failure: Elysia's ValidationError pretty-prints the value, quadratic in its depth
    throw new ValidationError(type, compiled, value)
  }
}

interface FieldCheck {
  key: string
  /** `{key: value}` against the field's schema */
  whole: ReturnType<typeof compiledSchema>
  /** `{key: stand-in}` against the kinds the field's schema allows */
  kind: ReturnType<typeof compiledSchema>
}

/** One check per declared field, in the schema's order (the first failure is the one the whole schema would name). */
function fieldChecks(schema: TSchema): FieldCheck[] {
  const properties = (schema as TObject).properties ?? {}
  return Object.entries(properties).map(([key, field]) => ({
    key,
    whole: compiledSchema(Type.Object({ [key]: field }, { additionalProperties: true })),
    kind: compiledSchema(Type.Object({ [key]: kindOnly(field) }, { additionalProperties: true })),
  }))
}

function checkFields(fields: FieldCheck[], view: Record<string, unknown>, standIns: ReadonlySet<string>): void {
  for (const { key, whole, kind } of fields) {
    const probe = key in view ? { [key]: view[key] } : {}
    const check = standIns.has(key) ? kind : whole
    if (check.Check(probe)) continue
    assertJsonDepth(probe)
    throw new ValidationError('body', check, probe)
  }
}

/** The field's schema reduced to the JSON kinds it accepts: what a stand-in (`[]`, `{}`, `'…'`) can be checked for. */
function kindOnly(schema: TSchema): TSchema {
  const optional = schema[OptionalKind] === 'Optional'
  let kind: TSchema
  switch (schema[Kind]) {
    case 'Array':
      kind = Type.Array(Type.Unknown())
      break
    case 'Object':
      kind = Type.Object({}, { additionalProperties: true })
      break
    case 'String':
      kind = Type.String()
      break
    case 'Union':
      kind = Type.Union((schema.anyOf as TSchema[]).map(kindOnly))
      break
    default:
      return schema
  }
  return optional ? Type.Optional(kind) : kind
}
