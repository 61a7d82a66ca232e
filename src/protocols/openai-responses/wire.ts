import { Type } from '@sinclair/typebox'

/** Responses request body. `input` may be a string or a list of items of many (also non-standard) types. */
const open = { additionalProperties: true } as const

const ResponsesItem = Type.Object({}, open)

export const ResponsesRequest = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    input: Type.Optional(Type.Union([Type.String(), Type.Array(ResponsesItem)])),
    instructions: Type.Optional(Type.Union([Type.String(), Type.Null(), Type.Array(ResponsesItem)])),
    stream: Type.Optional(Type.Boolean()),
    max_output_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
    top_p: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
    tools: Type.Optional(Type.Array(Type.Object({ type: Type.String() }, open))),
    tool_choice: Type.Optional(Type.Union([Type.String(), Type.Object({}, open)])),
    reasoning: Type.Optional(Type.Union([Type.Object({}, open), Type.Null()])),
    text: Type.Optional(Type.Object({}, open)),
  },
  open,
)
