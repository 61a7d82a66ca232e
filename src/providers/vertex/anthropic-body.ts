/**
 * What Anthropic-on-Vertex accepts of a Messages request. Per Anthropic's and Google's docs: no `model` in the body
 * (it is in the URL) and `anthropic_version: "vertex-2023-10-16"` in the body instead of the header. Vertex is
 * stricter than Anthropic about the rest: it refuses unknown top-level fields ("Extra inputs are not permitted"),
 * a document block with a URL source (Anthropic's Vertex SDK refuses it too), and beta flags it does not serve
 * ("Unexpected value(s) `…` for the `anthropic-beta` header"), which recent Claude Code versions send.
 */
import { BadRequestError } from '../../errors'

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16'

/** Top-level fields Claude Code sends that Vertex refuses (claude-code issue 82539: `diagnostics`). */
const REFUSED_FIELDS = ['diagnostics']

/**
 * Betas Vertex has answered "Unexpected value(s)" to on messages (Claude Code, sub2api, LiteLLM and Vercel AI
 * reports, 2025-2026). A deny list rather than an allow list: Vertex takes most of what Claude Code sends
 * (claude-code-20250219, interleaved-thinking, context-management, context-1m, effort, tool-search, web-search),
 * and its list grows; a flag it newly refuses is named by its 400 (see vertexRefusedBetas).
 */
const REFUSED_BETAS = new Set([
  'adaptive-thinking-2026-01-28',
  'advisor-tool-2026-03-01',
  'code-execution-2025-08-25',
  'fast-mode-2026-02-01',
  'files-api-2025-04-14',
  'mcp-client-2025-04-04',
  'mcp-client-2025-11-20',
  'oauth-2025-04-20',
  'prompt-caching-scope-2026-01-05',
  'redact-thinking-2026-02-12',
  'skills-2025-10-02',
  'structured-outputs-2025-11-13',
  'thinking-token-count-2026-05-13',
])

type Body = Record<string, unknown>

/** The body for rawPredict / streamRawPredict: a shallow copy without `model`, with Vertex's version, refused fields dropped. */
export function vertexAnthropicBody(body: Body, warnings: string[]): Body {
  const { model: _model, ...rest } = body
  refuseUrlDocuments(rest.messages)
  for (const field of REFUSED_FIELDS) {
    if (!(field in rest)) continue
    delete rest[field]
    warnings.push(`dropped \`${field}\`: Vertex AI refuses it`)
  }
  rest.anthropic_version = VERTEX_ANTHROPIC_VERSION
  return rest
}

/** The body for `count-tokens:rawPredict`: like a message's, but the model (Vertex's name) stays in the body. */
export function vertexAnthropicCountTokensBody(body: Body, vertexModel: string, warnings: string[]): Body {
  return { ...vertexAnthropicBody(body, warnings), model: vertexModel }
}

/**
 * The `anthropic-beta` header to send to Vertex: the client's flags without those Vertex refuses (each dropped one
 * named in `warnings`); counting tokens sends none, since Vertex's count-tokens refuses flags its messages take.
 * Undefined when nothing is left.
 */
export function vertexAnthropicBetas(header: string | undefined, warnings: string[], countTokens = false, refused: ReadonlySet<string> = REFUSED_BETAS): string | undefined {
  const flags = (header ?? '').split(',').map((flag) => flag.trim()).filter(Boolean)
  const kept = countTokens ? [] : flags.filter((flag) => !refused.has(flag))
  const dropped = flags.filter((flag) => !kept.includes(flag))
  if (dropped.length > 0) warnings.push(`dropped anthropic-beta ${dropped.join(', ')}: ${countTokens ? 'Vertex AI counts tokens without betas' : 'not served by Vertex AI'}`)
  return kept.length > 0 ? kept.join(',') : undefined
}

/**
 * The beta flags a Vertex 400 names as refused ("Unexpected value(s) `a`, `b` for the `anthropic-beta` header"),
 * so a caller can retry once without them and remember them for the channel. Empty for any other error.
 */
export function vertexRefusedBetas(message: string): string[] {
  const match = /Unexpected value\(s\) (.+?) for the `anthropic-beta` header/.exec(message)
  if (!match) return []
  return [...match[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)
}

function refuseUrlDocuments(messages: unknown): void {
  if (!Array.isArray(messages)) return
  messages.forEach((message, i) => {
    const content = (message as Body | null)?.content
    if (!Array.isArray(content)) return
    content.forEach((block: Body | null, j) => {
      const nested = block?.type === 'tool_result' && Array.isArray(block.content) ? (block.content as (Body | null)[]) : []
      for (const b of [block, ...nested]) {
        if (b?.type === 'document' && (b.source as Body | undefined)?.type === 'url') {
          throw new BadRequestError(`messages.${i}.content.${j}: Vertex AI does not take a document by URL; send it as base64 or text`, 'messages')
        }
      }
    })
  })
}
