/**
 * The matrix's vendor upstreams: AWS Bedrock (Converse for a Nova model, invoke for Claude) and Google Vertex AI
 * (Gemini through generateContent, Claude through rawPredict), each a fake that checks what the vendor checks
 * (SigV4 signatures, OAuth tokens from a fake token endpoint, Bedrock's and Vertex's body rules). Their recorded
 * requests are read through the same `Sent` shape as the plain fake's, so the matrix asserts every upstream alike.
 */
import type { ProtocolId } from '../../../src/protocols/types'
import type { Behavior } from '../../helpers/fake-upstreams'
import { startFakeBedrock, type FakeBedrock } from '../../helpers/fake-upstreams/bedrock'
import { startFakeGoogleToken, type FakeGoogleToken } from '../../helpers/fake-upstreams/google-token'
import { startFakeVertex, type FakeVertex } from '../../helpers/fake-upstreams/vertex'
import type { RelayEnv } from '../../helpers/relay-env'

/** The wire shape a fake received: a client protocol, or Bedrock's Converse. */
export type Wire = ProtocolId | 'bedrock-converse'

/** One upstream request as the matrix reads it, whichever fake recorded it. */
export interface Sent {
  /** the wire shape of the body */
  protocol: Wire
  /** the path as received (Bedrock's keeps `%3A` for the `:` of model ids) */
  path: string
  headers: Record<string, string>
  body: string
  json: any
  completed: boolean
}

/** The fakes' common surface: what the matrix scripts and reads. */
export interface Recording {
  readonly requests: Sent[]
  setBehavior(behavior: Behavior): void
  reset(): void
}

export interface VendorFakes {
  bedrock: FakeBedrock
  google: FakeGoogleToken
  vertex: FakeVertex
  projectId: string
  stop(): Promise<void>
}

export type MatrixEnv = RelayEnv & { vendors: VendorFakes }

const BEDROCK_REGION = 'us-west-2'
const AKID = 'AKIDMATRIXBEDROCK01'
const SECRET = 'matrix-bedrock-secret-access-key-0123'
const VERTEX_REGION = 'global'

/** Models of the vendor channels: Bedrock's own ids, a friendly name mapped to one, Vertex's Gemini and Anthropic's dated id. */
export const VENDOR_MODELS = {
  nova: 'us.amazon.nova-2-lite-v1:0',
  /** Converse families with other reasoning fields (features-vendors.test.ts) */
  llama: 'us.meta.llama4-maverick-17b-instruct-v1:0',
  gptOss: 'openai.gpt-oss-120b-1:0',
  bedrockClaude: 'claude-sonnet-4-5-bedrock',
  bedrockClaudeId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  vertexGemini: 'gemini-3-flash-preview',
  vertexClaude: 'claude-opus-4-5-20251101',
  vertexClaudeId: 'claude-opus-4-5@20251101',
}

/** Starts the vendor fakes and adds one channel per vendor (autoBan off: the cut-stream tests fail channels on purpose). */
export async function addVendorChannels(env: RelayEnv): Promise<VendorFakes> {
  const bedrock = await startFakeBedrock({ region: BEDROCK_REGION, credentials: { [AKID]: SECRET } })
  const google = await startFakeGoogleToken()
  const vertex = await startFakeVertex({ tokens: google, locations: [VERTEX_REGION] })
  const account = await google.createAccount({ projectId: 'matrix-project' })
  await env.addChannel({
    type: 33, name: 'matrix-bedrock', baseUrl: bedrock.url, keyText: `${AKID}|${SECRET}|${BEDROCK_REGION}`, autoBan: 0,
    models: [VENDOR_MODELS.nova, VENDOR_MODELS.llama, VENDOR_MODELS.gptOss, VENDOR_MODELS.bedrockClaude].join(','), modelMapping: JSON.stringify({ [VENDOR_MODELS.bedrockClaude]: VENDOR_MODELS.bedrockClaudeId }),
  })
  await env.addChannel({
    type: 41, name: 'matrix-vertex', baseUrl: vertex.url, keyText: account.json, other: VERTEX_REGION, autoBan: 0,
    models: `${VENDOR_MODELS.vertexGemini},${VENDOR_MODELS.vertexClaude}`,
  })
  return {
    bedrock, google, vertex, projectId: account.projectId,
    stop: async () => void (await Promise.all([bedrock.stop(), vertex.stop(), google.stop()])),
  }
}

function bedrockRecording(f: FakeBedrock): Recording {
  return {
    get requests() {
      return f.requests.map((r) => ({ protocol: r.operation?.startsWith('converse') ? 'bedrock-converse' : 'anthropic', path: r.path, headers: r.headers, body: r.body, json: r.json, completed: r.completed }) as Sent)
    },
    setBehavior: (b) => f.setBehavior(b),
    reset: () => f.reset(),
  }
}

function vertexRecording(f: FakeVertex): Recording {
  return {
    get requests() {
      return f.requests.map((r) => ({ protocol: r.publisher === 'anthropic' ? 'anthropic' : 'gemini', path: r.path, headers: r.headers, body: r.body, json: r.json, completed: r.completed }) as Sent)
    },
    setBehavior: (b) => f.setBehavior(b),
    reset: () => f.reset(),
  }
}

/** A vendor upstream of the matrix: its model, the wire its fake receives, the path each call must take. */
export interface VendorCase {
  /** shown in test names */
  protocol: string
  /** the wire shape the fake receives (Anthropic inside invoke and rawPredict) */
  wire: Wire
  model: string
  path: (stream: boolean) => string
  fake: (env: MatrixEnv) => Recording
}

const vertexPath = (publisher: string, model: string, action: string) => `/v1/projects/matrix-project/locations/${VERTEX_REGION}/publishers/${publisher}/models/${model}:${action}`

export const VENDOR_UPSTREAMS: VendorCase[] = [
  {
    protocol: 'bedrock-converse (Nova)', wire: 'bedrock-converse', model: VENDOR_MODELS.nova,
    path: (s) => `/model/${encodeURIComponent(VENDOR_MODELS.nova)}/${s ? 'converse-stream' : 'converse'}`,
    fake: (env) => bedrockRecording(env.vendors.bedrock),
  },
  {
    protocol: 'bedrock-invoke (Claude)', wire: 'anthropic', model: VENDOR_MODELS.bedrockClaude,
    path: (s) => `/model/${encodeURIComponent(VENDOR_MODELS.bedrockClaudeId)}/${s ? 'invoke-with-response-stream' : 'invoke'}`,
    fake: (env) => bedrockRecording(env.vendors.bedrock),
  },
  {
    protocol: 'vertex gemini', wire: 'gemini', model: VENDOR_MODELS.vertexGemini,
    path: (s) => vertexPath('google', VENDOR_MODELS.vertexGemini, s ? 'streamGenerateContent' : 'generateContent'),
    fake: (env) => vertexRecording(env.vendors.vertex),
  },
  {
    protocol: 'vertex-anthropic (Claude)', wire: 'anthropic', model: VENDOR_MODELS.vertexClaude,
    path: (s) => vertexPath('anthropic', VENDOR_MODELS.vertexClaudeId, s ? 'streamRawPredict' : 'rawPredict'),
    fake: (env) => vertexRecording(env.vendors.vertex),
  },
]
