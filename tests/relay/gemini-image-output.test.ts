import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addOperationRoute, type RecordedCall } from '../helpers/fake-upstreams/operations'
import { startOperationsEnv, type OperationsEnv } from '../operations/env'

// What gemini-2.5-flash-image answers: text and `inlineData` parts (camelCase on the REST API), image tokens in usage
const PIXEL = Buffer.from('not really a png').toString('base64')
const usageMetadata = { promptTokenCount: 9, candidatesTokenCount: 1295, totalTokenCount: 1304, candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: 1290 }] }
const parts = [{ text: 'Here is your cat:' }, { inlineData: { mimeType: 'image/png', data: PIXEL } }, { text: 'Enjoy.' }]

function refused(call: RecordedCall, key: string): Response | undefined {
  if (call.headers['x-goog-api-key'] === key) return undefined
  return Response.json({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } }, { status: 400 })
}

addOperationRoute('POST /v1beta/models/*:generateContent', (call, key) =>
  refused(call, key) ?? Response.json({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: 'gemini-2.5-flash-image', responseId: 'r1' }),
)
addOperationRoute('POST /v1beta/models/*:streamGenerateContent', (call, key) => {
  const no = refused(call, key)
  if (no) return no
  // one part per chunk, as Gemini streams them; the image whole in its own chunk
  const chunks = parts.map((part, i) => ({
    candidates: [{ content: { role: 'model', parts: [part] }, index: 0, ...(i === parts.length - 1 ? { finishReason: 'STOP' } : {}) }],
    usageMetadata: i === parts.length - 1 ? usageMetadata : { promptTokenCount: 9, totalTokenCount: 9 },
    modelVersion: 'gemini-2.5-flash-image',
    responseId: 'r2',
  }))
  return new Response(chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })
})

const EXPECTED = `Here is your cat:\n\n![image](data:image/png;base64,${PIXEL})\n\nEnjoy.`

let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(24, 'gemini-2.5-flash-image')
  await o.env.app.deps.options.set('ModelRatio', { 'gemini-2.5-flash-image': 0.15 })
})
afterAll(() => o.stop())

describe('Gemini image output to an OpenAI chat client', () => {
  test('non-stream: the inlineData image is a markdown data URL in the content, between the texts', async () => {
    const res = await o.openai.chat.completions.create({ model: 'gemini-2.5-flash-image', messages: [{ role: 'user', content: 'draw a cat' }] })
    expect(res.choices[0]!.message.content).toBe(EXPECTED)
    expect(res.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 1295 })
    expect(o.up.requests.at(-1)!.path).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent')
  })

  test('stream: the image arrives as a content delta of its own, in order', async () => {
    const stream = await o.openai.chat.completions.create({ model: 'gemini-2.5-flash-image', messages: [{ role: 'user', content: 'draw a cat' }], stream: true })
    const deltas: string[] = []
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content)
    expect(deltas.join('')).toBe(EXPECTED)
    expect(deltas).toContain(`\n\n![image](data:image/png;base64,${PIXEL})`)
    expect(o.up.requests.at(-1)!.path).toBe('/v1beta/models/gemini-2.5-flash-image:streamGenerateContent?alt=sse')
  })
})
