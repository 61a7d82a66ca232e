/**
 * Issue #18: the conversion of a large body, stage by stage, in process (no HTTP): the grown Claude Code turn
 * (tests/helpers/agent-body.ts) from an Anthropic client to an OpenAI chat upstream. Median of warm runs, ms.
 *
 *   bun bench/conversion-stages.ts [--sizes=1m,4m] [--runs=40]
 */
import { agentBody } from '../tests/helpers/agent-body'
import { anthropic } from '../src/protocols/anthropic'
import { openaiChat } from '../src/protocols/openai-chat'
import { scanJson } from '../src/relay/body/json-scan'
import { scannedBody, utf8Body, watchOf } from '../src/relay/body/request-body'
import { median } from './lib'

const flag = (name: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const SIZES: Record<string, number> = { '200k': 200_000, '1m': 1 << 20, '4m': 4 << 20 }
const runs = Number(flag('runs') ?? 40)
const decoder = new TextDecoder()
const encoder = new TextEncoder()

for (const size of (flag('sizes') ?? '1m,4m').split(',')) {
  const raw = encoder.encode(JSON.stringify({ ...agentBody(SIZES[size]!), model: 'm', stream: false }))
  const t: Record<string, number[]> = {}
  const time = <T>(name: string, f: () => T): T => {
    const t0 = performance.now()
    const out = f()
    ;(t[name] ??= []).push(performance.now() - t0)
    return out
  }
  for (let r = 0; r < runs + 10; r++) {
    const bytes = time('utf8Body (isUtf8)', () => utf8Body(raw.slice() as Uint8Array<ArrayBuffer>))
    const scan = time('scan', () => scanJson(bytes, watchOf(anthropic)))
    const body = time('view', () => scannedBody(bytes, scan))
    const text = time('decode UTF-16', () => decoder.decode(bytes))
    const parsed = time('JSON.parse', () => JSON.parse(text))
    void body
    const ir = time('decodeRequest', () => anthropic.decodeRequest(parsed, { checked: false }).value)
    const encoded = time('encodeRequest', () => openaiChat.encodeRequest({ ...ir, model: 'gpt' }).value)
    const out = time('JSON.stringify', () => JSON.stringify(encoded))
    time('encode UTF-8 (fetch)', () => encoder.encode(out))
    // the spliced path: the skeleton (cut strings checked, parsed), decoded, encoded, stringified, the tails copied in
    const cut = time('spliced: skeleton', () => scannedBody(bytes, scan).spliced()!)
    const sir = time('spliced: decodeRequest', () => anthropic.decodeRequest(cut.parsed, { checked: false }).value)
    const senc = time('spliced: encodeRequest', () => openaiChat.encodeRequest({ ...sir, model: 'gpt' }).value)
    const sjson = time('spliced: JSON.stringify', () => JSON.stringify(senc))
    const sout = time('spliced: splice into a Blob', () => new Blob(cut.splice(sjson).pieces))
    if (r === 0 && sout.size !== Buffer.byteLength(out)) throw new Error('the spliced body differs')
    if (r === 9) for (const k in t) t[k] = []
  }
  const sum = (spliced: boolean) => Object.entries(t).filter(([k]) => k.startsWith('spliced') === spliced).reduce((s, [, v]) => s + median(v), 0)
  console.log(`${size} (${(raw.length / 1048576).toFixed(2)} MB), median ms: ${Object.entries(t).map(([k, v]) => `${k} ${median(v).toFixed(2)}`).join(', ')}; parsed whole ${sum(false).toFixed(2)}, spliced (after the scan) ${sum(true).toFixed(2)}`)
}
