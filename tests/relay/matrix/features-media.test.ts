/**
 * Images × every client × every upstream × {non-stream, stream}: inline base64 and public URLs reach each
 * vendor in its own part (Anthropic image source, chat image_url, Responses input_image, Gemini inlineData /
 * fileData); media only one vendor can read (a Gemini file URI, an OpenAI file id) is a 400 naming it for the
 * others, never an opaque upstream error.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { ProtocolId } from '../../../src/protocols/types'
import type { RelayEnv } from '../../helpers/relay-env'
import { ask, clientRequest, FINISH, PAIRS, sentTo, type Img } from './features-kit'
import { startMatrixEnv, UPSTREAMS } from './harness'

let env: RelayEnv
beforeAll(async () => {
  env = await startMatrixEnv()
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
  env.upstream.setBehavior({ text: 'A red pixel.' })
})

// a 1×1 PNG
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const URL_IMG = 'https://example.com/images/cat.png'

/** The image parts of the upstream's last user turn, in the vendor's own shape. */
function images(protocol: ProtocolId, b: any): any[] {
  switch (protocol) {
    case 'anthropic':
      return b.messages.at(-1).content.filter((c: any) => c.type === 'image')
    case 'openai-chat':
      return b.messages.at(-1).content.filter((c: any) => c.type === 'image_url')
    case 'openai-responses':
      return b.input.at(-1).content.filter((c: any) => c.type === 'input_image')
    case 'gemini':
      return b.contents.at(-1).parts.filter((p: any) => p.inlineData || p.fileData)
  }
}

/** What each vendor must receive for a base64 PNG and for a public PNG URL. */
function expected(protocol: ProtocolId, img: Img): unknown {
  const data = img.kind === 'base64' ? `data:image/png;base64,${PNG}` : URL_IMG
  switch (protocol) {
    case 'anthropic':
      return { type: 'image', source: img.kind === 'base64' ? { type: 'base64', media_type: 'image/png', data: PNG } : { type: 'url', url: URL_IMG } }
    case 'openai-chat':
      return { type: 'image_url', image_url: expect.objectContaining({ url: data }) }
    case 'openai-responses':
      return expect.objectContaining({ type: 'input_image', image_url: data })
    case 'gemini':
      return img.kind === 'base64' ? { inlineData: { mimeType: 'image/png', data: PNG } } : { fileData: { mimeType: 'image/png', fileUri: URL_IMG } }
  }
}

const IMAGES: { name: string; img: Img }[] = [
  { name: 'base64', img: { kind: 'base64', data: PNG, mediaType: 'image/png' } },
  { name: 'url', img: { kind: 'url', url: URL_IMG } },
]

describe.each(UPSTREAMS)('→ $protocol upstream', (up) => {
  describe.each(PAIRS)('$client client, stream: $stream', ({ client, stream }) => {
    test.each(IMAGES)('image by $name reaches the vendor in its own part, next to the text', async ({ img }) => {
      const a = await ask(env, client, up.model, { messages: [{ role: 'user', text: 'What is this?', images: [img] }] }, stream)
      expect(a.status).toBe(200)
      expect(a.text).toBe('A red pixel.')
      expect(a.finish).toBe(FINISH[client].stop)
      const b = sentTo(env, up.protocol).json
      expect(images(up.protocol, b)).toEqual([expected(up.protocol, img)])
      expect(JSON.stringify(b)).toContain('What is this?')
    })

    test('two images in one turn and an image in an earlier turn keep their order', async () => {
      const a = await ask(env, client, up.model, {
        messages: [
          { role: 'user', text: 'First:', images: [IMAGES[1]!.img] },
          { role: 'assistant', text: 'A cat.' },
          { role: 'user', text: 'And these?', images: [IMAGES[0]!.img, IMAGES[1]!.img] },
        ],
      }, stream)
      expect(a.status).toBe(200)
      const b = sentTo(env, up.protocol).json
      expect(images(up.protocol, b)).toEqual([expected(up.protocol, IMAGES[0]!.img), expected(up.protocol, IMAGES[1]!.img)])
      const body = JSON.stringify(b)
      expect(body.indexOf('First:')).toBeLessThan(body.indexOf('A cat.'))
    })
  })
})

/** Media stored at one vendor: the Gemini client's own file URI and the Responses client's OpenAI file id. */
const PRIVATE = [
  { client: 'gemini' as const, owner: 'gemini', url: 'https://generativelanguage.googleapis.com/v1beta/files/abc123', readable: ['gemini'] },
  { client: 'gemini' as const, owner: 'gemini', url: 'gs://bucket/cat.png', readable: ['gemini'] },
  { client: 'openai-responses' as const, owner: 'openai', url: 'file-abc123', readable: ['openai-responses'] },
]

describe.each(UPSTREAMS)('→ $protocol upstream', (up) => {
  test.each(PRIVATE)('$client client, $url: passed to its own vendor, else a 400 naming it', async ({ client, url, readable }) => {
    const req = clientRequest(client, up.model, env.key, { messages: [{ role: 'user', text: 'Describe.' }] }, false)
    if (client === 'gemini') req.body.contents[0].parts.push({ fileData: { mimeType: 'image/png', fileUri: url } })
    else req.body.input[0].content.push({ type: 'input_image', file_id: url, detail: 'auto' })
    const res = await env.app.fetch(req.path, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body) })
    const text = await res.text()
    if (readable.includes(up.protocol)) {
      expect(res.status).toBe(200)
      expect(env.upstream.requests[0]!.body).toContain(url)
      return
    }
    expect(res.status).toBe(400)
    expect(text).toContain(url)
    expect(text).toMatch(/messages\[0\]\.content\[1\]/)
    expect(text).toMatch(client === 'gemini' ? /Gemini file URI/ : /OpenAI file id/)
    expect(env.upstream.requests).toHaveLength(0) // refused before any upstream saw it
  })
})
