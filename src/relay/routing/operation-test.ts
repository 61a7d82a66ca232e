import { followUp } from '../../operations/follow-up'
import { OPERATIONS } from '../../operations'
import { looksLikeEmbeddingModel } from '../../operations/embeddings/models'
import type { Operation, OperationDialect, OperationRequest } from '../../operations/types'
import { upstreamErrorMessage } from '../../providers/upstream-error'
import type { OperationEndpoint, OperationId, Provider } from '../../providers/types'
import { operationRequest } from '../../providers/upstream'
import { commonErrorMessage } from '../../operations/job-failure'
import type { Channel } from './channel'

/** An operation the channel can be tested with: the operation, and the endpoint and dialect its provider serves it in. */
export interface TestOperation {
  op: Operation<OperationRequest>
  endpoint: OperationEndpoint
  dialect: OperationDialect<OperationRequest>
}

/**
 * Which operation a channel test sends instead of a chat: the model's own (an embedding model is tested with an
 * embeddings call, a reranker with a rerank) when the provider serves it, else, for a provider that speaks no chat
 * protocol (Jina), the first operation it serves that has a probe. Undefined: a chat test.
 */
export function testOperationFor(provider: Provider, models: readonly string[]): TestOperation | undefined {
  const kind: OperationId | undefined = models.some(looksLikeEmbeddingModel) ? 'embeddings' : models.some((m) => /rerank/i.test(m)) ? 'rerank' : undefined
  const own = kind && served(provider, kind)
  if (own) return own
  if (provider.protocols.length > 0) return undefined
  for (const op of OPERATIONS) {
    const found = served(provider, op.id)
    if (found) return found
  }
  return undefined
}

function served(provider: Provider, id: OperationId): TestOperation | undefined {
  const op = OPERATIONS.find((o) => o.id === id && o.probe)
  const endpoint = provider.operations?.[id]
  const dialect = op && endpoint ? op.dialects[endpoint.dialect] : undefined
  return op && endpoint && dialect ? { op, endpoint, dialect } : undefined
}

export interface ProbeOutcome {
  ok: boolean
  status: number
  message: string
}

/**
 * The operation's smallest real request through the channel's dialect, endpoint and key, as the relay would send
 * it; a 2xx answer must also decode. Network errors are thrown for the caller to describe.
 */
export async function probeOperation(
  test: TestOperation,
  channel: Channel,
  key: string,
  model: string,
  upstreamModel: string,
  fetchImpl: (input: string, init?: RequestInit) => Promise<Response>,
  signal: AbortSignal,
): Promise<ProbeOutcome> {
  const { op, endpoint, dialect } = test
  const request = op.decode(op.probe!(model), { bytes: 0 })
  const call = dialect.encode(request, upstreamModel)
  const target = operationRequest(channel.provider, channel.baseUrl, call.path ? { ...endpoint, path: call.path } : endpoint, upstreamModel, key, { other: channel.other })
  const headers = { ...target.headers, ...(call.contentType ? { 'content-type': call.contentType } : {}), ...call.headers }
  const response = await fetchImpl(target.url, { method: 'POST', headers, body: call.body, signal })
  if (!response.ok) {
    const text = await response.text()
    return { ok: false, status: response.status, message: errorText(dialect, response.status, text) }
  }
  try {
    const poll = async (url: string) => {
      const polled = await fetchImpl(url, { method: 'GET', headers: target.headers, signal })
      if (!polled.ok) throw new Error(`a follow-up call answered ${polled.status}`)
      return polled
    }
    await dialect.decode(response, request, followUp(target.url, poll, signal))
    return { ok: true, status: response.status, message: '' }
  } catch (error) {
    return { ok: false, status: response.status, message: `upstream answered ${response.status} but not as ${op.path} answers: ${(error as Error).message}` }
  }
}

function errorText(dialect: OperationDialect<OperationRequest>, status: number, text: string): string {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return upstreamErrorMessage(status, text)
  }
  return dialect.errorMessage?.(status, body) ?? commonErrorMessage(body) ?? upstreamErrorMessage(status, text)
}
