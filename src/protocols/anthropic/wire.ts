import { Type } from '@sinclair/typebox'

/**
 * The Messages request body the server side accepts. Loose where real clients vary (content as string or
 * blocks, unknown block types, beta fields), strict where the API demands: model, messages, max_tokens ≥ 1,
 * temperature 0–1. Unknown fields are kept everywhere.
 */
const open = { additionalProperties: true } as const

const AnthropicBlock = Type.Object({ type: Type.String() }, open)

const AnthropicMessage = Type.Object(
  {
    role: Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('system')]),
    content: Type.Union([Type.String(), Type.Array(AnthropicBlock)]),
  },
  open,
)

const AnthropicTool = Type.Object({ name: Type.String() }, open)

export const AnthropicRequest = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    messages: Type.Array(AnthropicMessage),
    max_tokens: Type.Integer({ minimum: 1 }),
    system: Type.Optional(Type.Union([Type.String(), Type.Array(AnthropicBlock)])),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    top_k: Type.Optional(Type.Integer({ minimum: 0 })),
    stop_sequences: Type.Optional(Type.Array(Type.String())),
    stream: Type.Optional(Type.Boolean()),
    tools: Type.Optional(Type.Array(AnthropicTool)),
    tool_choice: Type.Optional(Type.Object({ type: Type.String() }, open)),
    thinking: Type.Optional(Type.Object({ type: Type.String() }, open)),
    metadata: Type.Optional(Type.Object({}, open)),
    output_config: Type.Optional(Type.Object({}, open)),
  },
  open,
)
