import { joinedPieces } from '../../../src/relay/body/pieces'
import { afterEach, describe, expect, test } from 'bun:test'
import { isSpliced, MARK_OPEN, SplicedTextError } from '../../../src/ir'
import type { ProtocolId, UpstreamProtocolId } from '../../../src/protocols/types'
import { providerFor } from '../../../src/providers'
import { chatMeter } from '../../../src/relay/meter/chat-meter'
import { chatRequest } from '../../../src/relay/chat/request'
import { scanJson } from '../../../src/relay/body/json-scan'
import type { RelayInput } from '../../../src/relay/types'
import { protocolFor } from '../../../src/relay/protocol-registry'
import { bodyLimits, scannedBody, utf8Body, watchOf } from '../../../src/relay/body/request-body'
import { spliceLimits } from '../../../src/relay/body/splice-paths'
import { gapsOf, rebuiltBody } from '../../../src/relay/body/places'
import { splicedBody } from '../../../src/relay/body/spliced-body'
import { convertedBody } from '../../../src/relay/chat/upstream-body'
import { upstreamProtocolById } from '../../../src/relay/chat/upstream-protocols'

const saved = { ...spliceLimits, ...bodyLimits }
afterEach(() => {
  Object.assign(spliceLimits, { minBytes: saved.minBytes, prefixBytes: saved.prefixBytes })
  Object.assign(bodyLimits, { wholeBytes: saved.wholeBytes, standInBytes: saved.standInBytes })
})

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The client's bytes of `json` (a JSON text written by hand, so its escapes are the test's), scanned as the relay scans them. */
function scanned(client: ProtocolId, json: string) {
  bodyLimits.standInBytes = 64 // the test bodies are small: only the model is parsed before dispatch, as in a large one
  const bytes = utf8Body(encoder.encode(json) as Uint8Array<ArrayBuffer>)
  const scan = scanJson(bytes, watchOf(protocolFor(client)))
  expect(scan.problem).toBeUndefined()
  return { bytes, scan, body: scannedBody(bytes, scan) }
}

/** The upstream body from the cut strings (undefined when that path was not taken) and from the body parsed whole. */
function convert(client: ProtocolId, upstream: UpstreamProtocolId, json: string) {
  const { body } = scanned(client, json)
  const input = { protocol: client, body } as RelayInput
  const request = chatRequest(protocolFor(client), input)
  const bodyInput = { clientProtocol: client, body, clientHeaders: new Headers(), request, upstreamModel: 'up-model', provider: providerFor(1)!, sendsAsIs: true }
  const out = convertedBody(bodyInput, upstreamProtocolById(upstream))
  const full = convertedBody({ ...bodyInput, request: { ...request, spliced: () => undefined } }, upstreamProtocolById(upstream))
  return { spliced: out.payload instanceof Uint8Array ? decoder.decode(out.payload) : undefined, full: full.payload as string, warnings: out.warnings, fullWarnings: full.warnings }
}

const long = (text: string, n = 600) => text.repeat(Math.ceil(n / text.length))

/** An Anthropic turn whose tool result and text are `raw` (JSON string content, escapes as written) */
const anthropicTurn = (raw: string, extra = '') =>
  `{"model":"claude","max_tokens":100,"system":[{"type":"text","text":"${raw}"}],"messages":[` +
  `{"role":"user","content":[{"type":"text","text":"${raw}"}]},` +
  `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"path":"${raw}"}}]},` +
  `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"${raw}"${extra}}]}]}`

describe('cut strings keep every character', () => {
  const samples: [string, string][] = [
    ['escapes of every kind', long('line\\n\\ttab \\"quoted\\" back\\\\slash \\/ \\b\\f\\r ')],
    ['\\u escapes, upper and lower case, of control characters and non-ASCII', long('\\u0001\\u001F\\u00e9\\u00E9\\u4e2d ')],
    ['raw UTF-8 of 2, 3 and 4 bytes', long('é 中 😀 ')],
    ['surrogate pairs as escapes, and lone ones', long('\\ud83d\\ude00 \\uD83D\\uDE00 \\ud800 \\udc00 ')],
    ['backslash runs before a u and a quote', long('\\\\u00e9 \\\\\\\\ \\\\\\" ')],
  ]
  for (const [name, raw] of samples) {
    test(name, () => {
      for (const prefixBytes of [0, 1, 2, 3, 5, 6, 7, 11, 12, 13, 64]) {
        Object.assign(spliceLimits, { minBytes: 16, prefixBytes })
        for (const upstream of ['openai-chat', 'openai-responses', 'gemini', 'bedrock-converse'] as const) {
          const { spliced, full } = convert('anthropic', upstream, anthropicTurn(raw))
          // Bedrock reads whether a text is blank from its start: with nothing kept, the body is converted whole
          if (upstream !== 'bedrock-converse' || prefixBytes > 0) expect(spliced, `${upstream}, prefix ${prefixBytes}`).toBeDefined()
          expect(JSON.parse(spliced ?? full), `${upstream}, prefix ${prefixBytes}`).toEqual(JSON.parse(full))
        }
      }
    })
  }

  test('a cut part stays escaped as the client wrote it; the kept start and the tool input (not cut) are written anew', () => {
    Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 4 })
    const raw = long('caf\\u00e9 ')
    const { spliced } = convert('anthropic', 'openai-chat', anthropicTurn(raw))
    const sent = JSON.parse(spliced!)
    expect(sent.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 't1', content: JSON.parse(`"${raw}"`) })
    expect(spliced).toContain(`"content":"café ${raw.slice(10)}"`)
    expect(spliced).toContain(`"arguments":"{\\"path\\":\\"café café`)
  })

  test('a JSON body the client wrote with JSON.stringify comes out as the whole path writes it, byte for byte', () => {
    Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 8 })
    const text = long('a "b" \\ c\nd\te 中 😀 \u0001 ')
    const json = JSON.stringify({ model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: text }, { role: 'assistant', content: 'ok' }, { role: 'user', content: [{ type: 'text', text }] }] })
    const { spliced, full } = convert('anthropic', 'openai-chat', json)
    expect(spliced).toBe(full)
  })
})

describe('the client body made again from a converted one (its bytes let go of while the upstream answers)', () => {
  test('its gaps and the tails the converted body holds give back every byte, escapes and non-ASCII included', () => {
    spliceLimits.minBytes = 16
    const raw = long('line\\n \\"q\\" é 中 😀 \\ud83d\\ude00 \\u00e9 ')
    const json = anthropicTurn(raw)
    const { bytes, body } = scanned('anthropic', json)
    const input = { protocol: 'anthropic', body } as RelayInput
    const request = chatRequest(protocolFor('anthropic'), input)
    const out = convertedBody({ clientProtocol: 'anthropic', body, clientHeaders: new Headers(), request, upstreamModel: 'up', provider: providerFor(1)!, sendsAsIs: true }, upstreamProtocolById('openai-chat'))
    expect(out.places?.runs.length).toBe(6) // system, the text, the tool result (the tool input is not cut)
    const gaps = gapsOf(bytes, out.places!)
    expect(gaps.length).toBeLessThan(json.length / 2)
    const again = rebuiltBody(out.places!, gaps, out.payload as Uint8Array)
    expect(decoder.decode(again)).toBe(json)
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true)
  })

  test('a converted body that leaves a tail out cannot give the client body back', () => {
    const { bytes, scan } = (Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 0 }), scanned('anthropic', anthropicTurn(long('abc'))))
    const cut = splicedBody(bytes, scan.spliced)!
    const text = (cut.parsed.messages as any)[0].content[0].text as string
    expect(cut.splice(JSON.stringify({ t: text })).places).toBeUndefined() // one of the three tails
    const system = (cut.parsed.system as any)[0].text as string
    const tool = (cut.parsed.messages as any)[2].content[0].content as string
    expect(cut.splice(JSON.stringify({ a: tool, b: system, c: text, d: text })).places?.at.length).toBe(3)
  })
})

describe('the request decoded from a cut body, while the upstream answers', () => {
  /** A converted body sent as a Blob, the client bytes released: a weak hold on the decoded cut the conversion read. */
  function convertAndRelease(json: string) {
    const { body } = scanned('anthropic', json)
    const input = { protocol: 'anthropic', body } as RelayInput
    const request = chatRequest(protocolFor('anthropic'), input)
    const decoded = new WeakRef(request.spliced()!)
    const out = convertedBody({ clientProtocol: 'anthropic', body, clientHeaders: new Headers(), request, upstreamModel: 'up', provider: providerFor(1)!, sendsAsIs: true }, upstreamProtocolById('openai-chat'))
    body.release({ payload: new Blob([out.payload as Uint8Array<ArrayBuffer>]), places: out.places })
    return { request, body, decoded }
  }

  test('is let go of with the body\'s cut (megabytes of objects for a large turn), and made anew once the bytes are read back', async () => {
    spliceLimits.minBytes = 16
    const text = long('line\\n \\"q\\" é 中 ', 4000)
    const json = `{"model":"claude","max_tokens":100,"messages":[{"role":"user","content":[{"type":"text","text":"${text}"}]}]}`
    const { request, body, decoded } = convertAndRelease(json)
    expect(() => body.bytes).toThrow('released')
    for (let i = 0; i < 5 && decoded.deref(); i++) {
      Bun.gc(true)
      await Bun.sleep(1)
    }
    expect(decoded.deref()).toBeUndefined()
    await body.restore()
    const first = request.spliced()!.value.messages[0] as unknown as { content: { text: string }[] }
    expect(first.content[0]!.text.startsWith('line')).toBe(true)
  })
})

describe('a cut string that is not valid JSON string content', () => {
  const invalid: [string, string][] = [
    ['a raw control character', `${long('a')}\u0001b`],
    ['a raw tab', `${long('a')}\tb`],
    ['an unknown escape', `${long('a')}\\xb`],
    ['a \\u without four hex digits', `${long('a')}\\u12G4`],
    ['a \\u at the very end', `${long('a')}\\u12`],
    ['an odd backslash run before an unknown escape', `${long('a')}\\\\\\q`],
  ]
  for (const [name, raw] of invalid) {
    test(`${name}: not cut, so parsing the body whole refuses it`, () => {
      Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 8 })
      const { bytes, scan } = scanned('anthropic', anthropicTurn(raw))
      expect(scan.spliced.length).toBeGreaterThan(0)
      expect(splicedBody(bytes, scan.spliced)).toBeUndefined()
      expect(() => JSON.parse(decoder.decode(bytes))).toThrow()
    })
  }

  test('valid neighbours of those: an escaped backslash before x, an even run before q', () => {
    Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 8 })
    for (const raw of [`${long('a')}\\\\xb`, `${long('a')}\\\\\\\\q`, `${long('a')}\\u12aF`]) {
      const { bytes, scan } = scanned('anthropic', anthropicTurn(raw))
      expect(splicedBody(bytes, scan.spliced), raw).toBeDefined()
    }
  })
})

describe('what is never cut', () => {
  test('a body holding the mark character, raw or escaped, is converted whole; an escaped backslash before uE000 is not the mark', () => {
    Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 8 })
    for (const raw of [long('x\uE000y'), long('x\\uE000y'), long('x\\ue000y')]) {
      const { spliced, full } = convert('anthropic', 'openai-chat', anthropicTurn(raw))
      expect(spliced).toBeUndefined()
      expect(JSON.parse(full).messages.at(-1).content).toBe(JSON.parse(`"${raw}"`))
    }
    const { spliced } = convert('anthropic', 'openai-chat', anthropicTurn(long('x\\\\uE000y')))
    expect(spliced).toBeDefined()
  })

  test('strings under no splice path (tool inputs, ids, names) and short ones', () => {
    Object.assign(spliceLimits, { minBytes: 600, prefixBytes: 8 })
    const { body } = scanned('anthropic', anthropicTurn(long('a', 600), `,"is_error":false`))
    const cut = body.spliced()!
    const texts = JSON.stringify(cut.parsed)
    // system, the user's text and the tool result are cut; the tool_use input is whole
    expect(texts.split(MARK_OPEN).length - 1).toBe(3)
    expect((cut.parsed.messages as any)[1].content[0].input.path).toBe(long('a', 600))
    expect(scanned('anthropic', anthropicTurn('short')).scan.spliced).toEqual([])
  })

  test('an image URL only when it is a data URL, cut after its header; its media type read from the header', () => {
    Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 4 })
    const data = long('iVBORw0KGgo', 800)
    const chat = (url: string) =>
      `{"model":"gpt","messages":[{"role":"user","content":[{"type":"text","text":"what is it"},{"type":"image_url","image_url":{"url":"${url}"}}]}]}`
    const dataUrl = convert('openai-chat', 'anthropic', chat(`data:image/webp;base64,${data}`))
    expect(dataUrl.spliced).toBeDefined()
    expect(JSON.parse(dataUrl.spliced!).messages[0].content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/webp', data } })
    const { scan } = scanned('openai-chat', chat(`https://example.com/${long('p', 800)}.png`))
    expect(scan.spliced).toEqual([])
  })
})

describe('converters that need a whole text get one', () => {
  test('an error tool result is prefixed unless it starts with "error", read from its whole start', () => {
    Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 2 })
    for (const start of ['Error: not found. ', 'nothing there. ']) {
      const raw = long(start)
      for (const upstream of ['openai-chat', 'openai-responses'] as const) {
        const { spliced, full } = convert('anthropic', upstream, anthropicTurn(raw, ',"is_error":true'))
        expect(spliced ?? full).toBe(full)
      }
    }
  })

  test('JSON mode: "json" only in a cut part of a text is still found', () => {
    Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 4 })
    const chat = `{"model":"gpt","response_format":{"type":"json_object"},"messages":[{"role":"user","content":"${long('answer as JSON please ')}"}]}`
    for (const upstream of ['openai-responses'] as const) {
      const { spliced, full, warnings, fullWarnings } = convert('openai-chat', upstream, chat)
      expect(spliced ?? full).toBe(full)
      expect(warnings).toEqual(fullWarnings)
      expect(full).not.toContain('Respond in JSON')
    }
  })

  test('an Anthropic text document (base64-encoded for other vendors) and a text file sent to Anthropic', () => {
    Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 4 })
    const doc = `{"model":"claude","max_tokens":10,"messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"${long('notes \\u00e9 ')}"}},{"type":"text","text":"${long('summarise ')}"}]}]}`
    const { spliced, full } = convert('anthropic', 'openai-chat', doc)
    expect(spliced).toBeUndefined() // the document's text must be read whole: the body is converted parsed whole
    const notes = JSON.parse(`"${long('notes \\u00e9 ')}"`) as string
    expect(JSON.parse(full).messages[0].content[0].file.file_data).toBe(`data:text/plain;base64,${Buffer.from(notes).toString('base64')}`)
    const file = `{"model":"gpt","messages":[{"role":"user","content":[{"type":"file","file":{"filename":"a.txt","file_data":"data:text/plain;base64,${Buffer.from(long('x y ')).toString('base64')}"}}]}]}`
    const back = convert('openai-chat', 'anthropic', file)
    expect(back.spliced ?? back.full).toBe(back.full)
    expect(JSON.parse(back.full).messages[0].content[0].source).toEqual({ type: 'text', media_type: 'text/plain', data: long('x y ') })
  })

  test('Bedrock blank text blocks are dropped, also when only the cut part would tell', () => {
    Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 4 })
    const raw = long('  \\n ')
    const { spliced, full } = convert('anthropic', 'bedrock-converse', anthropicTurn(raw))
    expect(spliced ?? full).toBe(full)
    expect(JSON.parse(full).system).toBeUndefined()
  })

  test('a mark that comes out stringified twice is refused, so the body is converted whole', () => {
    const { bytes, scan } = (Object.assign(spliceLimits, { minBytes: 16, prefixBytes: 0 }), scanned('anthropic', anthropicTurn(long('abc'))))
    const cut = splicedBody(bytes, scan.spliced)!
    const text = (cut.parsed.messages as any)[0].content[0].text as string
    expect(isSpliced(text)).toBe(true)
    expect(decoder.decode(joinedPieces(cut.splice(JSON.stringify({ t: text }))))).toBe(`{"t":"${long('abc')}"}`)
    expect(() => cut.splice(JSON.stringify({ t: JSON.stringify({ inner: text }) }))).toThrow(SplicedTextError)
    expect(() => cut.splice(JSON.stringify({ t: text.slice(0, 3) }))).toThrow(SplicedTextError)
    expect(cut.bytesOf(`ab${text}`)).toBe(2 + long('abc').length)
  })
})

describe('the reservation of a long prompt with media reads the cut body', () => {
  const meterOf = (json: string) => {
    const { body } = scanned('anthropic', json)
    const request = chatRequest(protocolFor('anthropic'), { protocol: 'anthropic', body } as RelayInput)
    const whole = chatRequest(protocolFor('anthropic'), { protocol: 'anthropic', body: scanned('anthropic', json).body } as RelayInput)
    return { cut: chatMeter({ ...request, full: () => { throw new Error('parsed whole') } }, body), whole: chatMeter({ ...whole, spliced: () => undefined }, body) }
  }
  const image = `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${'iVBORw0KGgo'.repeat(5_000)}"}}`

  test('an image and short texts: counted exactly, as from the body parsed whole', () => {
    const { cut, whole } = meterOf(`{"model":"claude","max_tokens":10,"messages":[{"role":"user","content":[${image},{"type":"text","text":"what is this?"}]}]}`)
    expect(cut).toMatchObject({ input: whole.input, exact: true })
    expect(whole.exact).toBe(true)
  })

  test('an image and long texts: the texts bound by their bytes as sent, never fewer than their UTF-8 bytes', () => {
    const text = long('caf\\u00e9 \\n ', 80_000)
    const { cut, whole } = meterOf(`{"model":"claude","max_tokens":10,"messages":[{"role":"user","content":[${image},{"type":"text","text":"${text}"}]}]}`)
    expect(cut.exact).toBe(false)
    expect(whole.exact).toBe(false)
    expect(cut.input).toBeGreaterThanOrEqual(whole.input)
    expect(cut.input).toBeLessThanOrEqual(whole.input + text.length) // escapes counted as sent: at most their bytes again
  })
})
