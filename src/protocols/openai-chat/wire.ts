import { Type } from '@sinclair/typebox'

/** Chat Completions request body. Loose on content shapes, strict on what the API requires. */
const open = { additionalProperties: true } as const

const ChatMessage = Type.Object(
  {
    role: Type.String(),
    content: Type.Optional(Type.Union([Type.String(), Type.Null(), Type.Array(Type.Object({ type: Type.String() }, open))])),
  },
  open,
)

export const ChatRequest = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    messages: Type.Array(ChatMessage, { minItems: 1 }),
    stream: Type.Optional(Type.Boolean()),
    max_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    max_completion_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
    top_p: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
    stop: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String()), Type.Null()])),
    tools: Type.Optional(Type.Array(Type.Object({ type: Type.String() }, open))),
    tool_choice: Type.Optional(Type.Union([Type.String(), Type.Object({}, open)])),
    stream_options: Type.Optional(Type.Union([Type.Object({}, open), Type.Null()])),
    response_format: Type.Optional(Type.Object({ type: Type.String() }, open)),
  },
  open,
)
