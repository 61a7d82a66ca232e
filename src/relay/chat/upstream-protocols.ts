import { emptyRequest, textPart } from '../../ir'
import { protocols } from '../../protocols'
import { bedrockConverse } from '../../protocols/bedrock-converse'
import { bedrockInvoke, bedrockInvokeBody } from '../../protocols/bedrock-invoke'
import { codex } from '../../protocols/codex'
import { coze } from '../../protocols/coze'
import { dify } from '../../protocols/dify'
import { hunyuan } from '../../protocols/hunyuan'
import { spark } from '../../protocols/spark'
import { AwsEventStreamParser } from '../../protocols/framing/aws-event-stream'
import type { ProtocolId, UpstreamProtocol, UpstreamProtocolId, WireError } from '../../protocols/types'
import { vertexAnthropicBetas, vertexAnthropicBody } from '../../providers/vertex'

const { anthropic, gemini } = protocols

/** Anthropic Messages carried inside another vendor's envelope: Anthropic's codecs, the vendor's body and errors. */
function carryingAnthropic(id: UpstreamProtocolId, rest: Pick<UpstreamProtocol, 'wrapBody' | 'createFrameParser' | 'parseError'>): UpstreamProtocol {
  return {
    id,
    carries: 'anthropic',
    encodeRequest: anthropic.encodeRequest,
    decodeResponse: anthropic.decodeResponse,
    createStreamDecoder: anthropic.createStreamDecoder,
    createUsageTap: anthropic.createUsageTap,
    usageFromBody: anthropic.usageFromBody,
    probeBody: anthropic.probeBody,
    ...rest,
  }
}

/** Vertex answers Claude's own errors in Anthropic's shape and its platform's (auth, quota, region) in Google's. */
function vertexError(status: number, body: unknown): WireError {
  const google = (body as { error?: { status?: unknown } })?.error?.status
  return typeof google === 'string' ? gemini.parseError(status, body) : anthropic.parseError(status, body)
}

const UPSTREAM_ONLY: Record<Exclude<UpstreamProtocolId, ProtocolId>, UpstreamProtocol> = {
  'bedrock-converse': {
    ...bedrockConverse,
    id: 'bedrock-converse',
    createFrameParser: () => new AwsEventStreamParser(),
    probeBody: (model) => bedrockConverse.encodeRequest({ ...emptyRequest(model), messages: [{ role: 'user', content: [textPart('hi')] }], maxOutputTokens: 1 }).value,
  },
  'bedrock-invoke': carryingAnthropic('bedrock-invoke', {
    parseError: bedrockInvoke.parseError,
    createFrameParser: bedrockInvoke.createStreamParser,
    wrapBody: (body, headers, warnings) => ({ text: bedrockInvokeBody(body, warnings, headers?.get('anthropic-beta') ?? undefined), headers: {} }),
  }),
  codex,
  coze,
  dify,
  hunyuan,
  spark,
  'vertex-anthropic': carryingAnthropic('vertex-anthropic', {
    parseError: vertexError,
    wrapBody: (body, headers, warnings) => {
      const betas = vertexAnthropicBetas(headers?.get('anthropic-beta') ?? undefined, warnings)
      const out: Record<string, string> = betas ? { 'anthropic-beta': betas } : {}
      return { text: JSON.stringify(vertexAnthropicBody(body, warnings)), headers: out }
    },
  }),
}

/** The upstream half of any protocol, by id: the four client protocols and the upstream-only ones. */
export function upstreamProtocolById(id: UpstreamProtocolId): UpstreamProtocol {
  return (protocols as Record<string, UpstreamProtocol>)[id] ?? UPSTREAM_ONLY[id as keyof typeof UPSTREAM_ONLY]
}

/** The client protocol an upstream protocol's answers are in (itself, or the one it carries), if any. */
export function wireOf(protocol: UpstreamProtocol): ProtocolId | undefined {
  return protocol.carries ?? (Object.hasOwn(protocols, protocol.id) ? (protocol.id as ProtocolId) : undefined)
}
