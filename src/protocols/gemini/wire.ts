import { Type } from '@sinclair/typebox'

/**
 * generateContent request body. The model and the stream flag live in the URL
 * (`/v1beta/models/{model}:generateContent` / `:streamGenerateContent?alt=sse`); the relay passes the model as
 * `model` in the body (or sets it on the decoded request).
 */
const open = { additionalProperties: true } as const

const GeminiPart = Type.Object({}, open)

const GeminiContent = Type.Object({ role: Type.Optional(Type.String()), parts: Type.Array(GeminiPart) }, open)

export const GeminiRequest = Type.Object(
  {
    model: Type.Optional(Type.String()),
    contents: Type.Array(GeminiContent),
    systemInstruction: Type.Optional(Type.Object({ parts: Type.Array(GeminiPart) }, open)),
    tools: Type.Optional(Type.Array(Type.Object({}, open))),
    toolConfig: Type.Optional(Type.Object({}, open)),
    generationConfig: Type.Optional(
      Type.Object(
        {
          temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
          topP: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          topK: Type.Optional(Type.Number({ minimum: 0 })),
          maxOutputTokens: Type.Optional(Type.Integer({ minimum: 1 })),
          stopSequences: Type.Optional(Type.Array(Type.String())),
        },
        open,
      ),
    ),
  },
  open,
)
