import { expect, test } from 'bun:test'
import { completions } from '../../src/operations/completions'
import { moderations } from '../../src/operations/moderations'
import { rerank } from '../../src/operations/rerank'
import { providerFor } from '../../src/providers/registry'
import type { OperationId } from '../../src/providers/types'
import { operationRequest } from '../../src/providers/upstream'
import type { Operation, OperationRequest } from '../../src/operations/types'

/** The URL and auth of one operation on a channel type at its real default root (or `baseUrl`). */
function target(type: number, op: OperationId, model: string, baseUrl = '') {
  const provider = providerFor(type)!
  const endpoint = provider.operations?.[op]
  if (!endpoint) return undefined
  const { url, headers } = operationRequest(provider, baseUrl, endpoint, model, 'k-123')
  return { url, auth: headers.authorization, dialect: endpoint.dialect }
}

test('rerank, moderations and completions at each vendor’s real endpoint, in a dialect the operation has', () => {
  const cases: [number, OperationId, string, string, string][] = [
    [38, 'rerank', 'jina-reranker-m0', 'https://api.jina.ai/v1/rerank', 'rerank'],
    [34, 'rerank', 'rerank-v3.5', 'https://api.cohere.ai/v2/rerank', 'cohere'],
    [40, 'rerank', 'BAAI/bge-reranker-v2-m3', 'https://api.siliconflow.cn/v1/rerank', 'rerank'],
    [17, 'rerank', 'gte-rerank-v2', 'https://dashscope.aliyuncs.com/api/v1/services/rerank/text-rerank/text-rerank', 'dashscope'],
    [47, 'rerank', 'bge-reranker-v2-m3', 'http://localhost:9997/v1/rerank', 'rerank'],
    [1, 'moderations', 'omni-moderation-latest', 'https://api.openai.com/v1/moderations', 'openai'],
    [1, 'completions', 'gpt-3.5-turbo-instruct', 'https://api.openai.com/v1/completions', 'openai'],
    [43, 'completions', 'deepseek-chat', 'https://api.deepseek.com/beta/completions', 'openai'],
    [42, 'completions', 'codestral-latest', 'https://api.mistral.ai/v1/fim/completions', 'mistral-fim'],
    [17, 'completions', 'qwen2.5-coder-32b-instruct', 'https://dashscope.aliyuncs.com/compatible-mode/v1/completions', 'openai'],
    [40, 'completions', 'Qwen/Qwen2.5-Coder-7B-Instruct', 'https://api.siliconflow.cn/v1/completions', 'openai'],
    [4, 'completions', 'qwen2.5-coder', 'http://localhost:11434/v1/completions', 'openai'],
  ]
  const ops = { rerank, moderations, completions } as Record<string, { dialects: Record<string, unknown> }>
  for (const [type, op, model, url, dialect] of cases) {
    const found = target(type, op, model)
    expect(found, `${type} ${op}`).toMatchObject({ url, auth: 'Bearer k-123', dialect })
    expect(ops[op]!.dialects[dialect], `${type} ${op} ${dialect}`).toBeDefined()
  }
})

test('a Custom channel (and so every preset) serves all three under its base URL, with or without /v1', () => {
  for (const base of ['https://llm.internal.example', 'https://llm.internal.example/v1']) {
    expect(target(8, 'rerank', 'm', base)!.url).toBe('https://llm.internal.example/v1/rerank')
    expect(target(8, 'moderations', 'm', base)!.url).toBe('https://llm.internal.example/v1/moderations')
    expect(target(8, 'completions', 'm', base)!.url).toBe('https://llm.internal.example/v1/completions')
  }
})

test('types that do not serve an operation have no endpoint for it (no made-up routes)', () => {
  expect(target(43, 'rerank', 'x')).toBeUndefined()
  expect(target(38, 'completions', 'x')).toBeUndefined()
  expect(target(34, 'completions', 'x')).toBeUndefined()
  expect(target(42, 'moderations', 'x')).toBeUndefined()
})

test('each operation’s channel-test probe is a body its decoder takes and every dialect encodes', () => {
  for (const op of [rerank, moderations, completions] as unknown as Operation<OperationRequest>[]) {
    const request = op.decode(op.probe!('probe-model'), { bytes: 0 })
    expect(request.model).toBe('probe-model')
    for (const [name, dialect] of Object.entries(op.dialects)) {
      const call = dialect!.encode(request, 'upstream-model')
      expect(JSON.parse(call.body as string).model, `${op.id} ${name}`).toBe('upstream-model')
    }
  }
})
