/**
 * Reasoning produced by another protocol (OpenAI encrypted_content, Anthropic signatures, Gemini thoughtSignature)
 * is shown to clients as reasoning whose opaque field (Anthropic signature, Responses encrypted_content) is an envelope we can recognise when the
 * client sends the block back: `tollgate.1.<base64url(JSON)>`. Real Anthropic signatures never start so.
 * This keeps foreign reasoning round-tripping through Anthropic clients without ever sending it to
 * Anthropic upstreams (the Anthropic encoder drops reasoning whose origin is not `anthropic`).
 */
const PREFIX = 'tollgate.1.'

export interface SignatureEnvelope {
  origin: string
  signature?: string
  encrypted?: string
  id?: string
}

export function wrapSignature(env: SignatureEnvelope): string {
  const json = JSON.stringify({ o: env.origin, s: env.signature, e: env.encrypted, i: env.id })
  return PREFIX + Buffer.from(json, 'utf8').toString('base64url')
}

export function unwrapSignature(sig: string): SignatureEnvelope | undefined {
  if (!sig.startsWith(PREFIX)) return undefined
  try {
    const v = JSON.parse(Buffer.from(sig.slice(PREFIX.length), 'base64url').toString('utf8')) as Record<string, unknown>
    if (typeof v.o !== 'string') return undefined
    const env: SignatureEnvelope = { origin: v.o }
    if (typeof v.s === 'string') env.signature = v.s
    if (typeof v.e === 'string') env.encrypted = v.e
    if (typeof v.i === 'string') env.id = v.i
    return env
  } catch {
    return undefined
  }
}
