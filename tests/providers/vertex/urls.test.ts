import { describe, expect, test } from 'bun:test'
import {
  VertexConfigError,
  vertexAction,
  vertexEmbeddingMethod,
  vertexModelId,
  vertexPublisher,
  vertexRegion,
  vertexRoot,
  vertexUrl,
} from '../../../src/providers/vertex'

const P = 'my-project'

describe('vertexUrl', () => {
  test('Gemini on a regional endpoint: generate, SSE stream, count, embeddings', () => {
    const at = (operation: 'generate' | 'stream' | 'countTokens' | 'embed', model = 'gemini-2.5-pro') =>
      vertexUrl({ project: P, region: 'us-central1', model, operation })
    const base = 'https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models'
    expect(at('generate')).toBe(`${base}/gemini-2.5-pro:generateContent`)
    expect(at('stream')).toBe(`${base}/gemini-2.5-pro:streamGenerateContent?alt=sse`)
    expect(at('countTokens')).toBe(`${base}/gemini-2.5-pro:countTokens`)
    expect(at('embed', 'text-embedding-005')).toBe(`${base}/text-embedding-005:predict`)
    expect(at('embed', 'gemini-embedding-001')).toBe(`${base}/gemini-embedding-001:predict`)
    expect(at('embed', 'gemini-embedding-2-preview')).toBe(`${base}/gemini-embedding-2-preview:embedContent`)
  })

  test('Claude on the global endpoint: rawPredict, streamRawPredict, count-tokens; Anthropic ids become Vertex ids', () => {
    const at = (operation: 'generate' | 'stream' | 'countTokens', model = 'claude-sonnet-4-5@20250929') =>
      vertexUrl({ project: P, region: 'global', model, operation })
    const base = 'https://aiplatform.googleapis.com/v1/projects/my-project/locations/global/publishers/anthropic/models'
    expect(at('generate')).toBe(`${base}/claude-sonnet-4-5@20250929:rawPredict`)
    expect(at('stream')).toBe(`${base}/claude-sonnet-4-5@20250929:streamRawPredict`)
    expect(at('countTokens')).toBe(`${base}/count-tokens:rawPredict`)
    expect(at('generate', 'claude-sonnet-4-5-20250929')).toBe(`${base}/claude-sonnet-4-5@20250929:rawPredict`)
    expect(at('stream', 'claude-opus-4-6')).toBe(`${base}/claude-opus-4-6:streamRawPredict`)
  })

  test('Claude regional and Gemini global; the us and eu multi-regions; a base_url replaces the host only', () => {
    expect(vertexUrl({ project: P, region: 'us-east5', model: 'claude-haiku-4-5@20251001', operation: 'generate' }))
      .toBe('https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5@20251001:rawPredict')
    expect(vertexUrl({ project: P, region: 'global', model: 'gemini-2.5-flash', operation: 'stream' }))
      .toBe('https://aiplatform.googleapis.com/v1/projects/my-project/locations/global/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse')
    expect(vertexRoot('us')).toBe('https://aiplatform.us.rep.googleapis.com')
    expect(vertexRoot('eu')).toBe('https://aiplatform.eu.rep.googleapis.com')
    expect(vertexRoot('europe-west4')).toBe('https://europe-west4-aiplatform.googleapis.com')
    expect(vertexUrl({ project: P, region: 'europe-west1', model: 'gemini-2.5-flash', operation: 'generate', baseUrl: 'http://127.0.0.1:9999/' }))
      .toBe('http://127.0.0.1:9999/v1/projects/my-project/locations/europe-west1/publishers/google/models/gemini-2.5-flash:generateContent')
  })

  test('path segments are encoded; a region that is no region name is refused', () => {
    expect(vertexUrl({ project: 'example.com:proj', region: 'global', model: 'a/b?c', operation: 'generate' }))
      .toBe('https://aiplatform.googleapis.com/v1/projects/example.com%3Aproj/locations/global/publishers/google/models/a%2Fb%3Fc:generateContent')
    expect(() => vertexUrl({ project: P, region: 'evil.com/x', model: 'm', operation: 'generate' })).toThrow(VertexConfigError)
    expect(() => vertexRoot('attacker.example#')).toThrow('not a Google Cloud region name')
  })

  test('Claude has no embeddings on Vertex: a 400 naming the model', () => {
    let error: VertexConfigError | undefined
    try {
      vertexAction('embed', 'claude-sonnet-4-5@20250929')
    } catch (e) {
      error = e as VertexConfigError
    }
    expect(error).toBeInstanceOf(VertexConfigError)
    expect(error!.status).toBe(400)
    expect(error!.param).toBe('model')
  })
})

describe('models and publishers', () => {
  test('claude → anthropic, everything else → google', () => {
    expect(vertexPublisher('claude-3-7-sonnet@20250219')).toBe('anthropic')
    expect(vertexPublisher('Claude-Opus-4-1')).toBe('anthropic')
    expect(vertexPublisher('gemini-2.5-pro')).toBe('google')
    expect(vertexPublisher('text-embedding-005')).toBe('google')
  })

  test('vertexModelId: dated Anthropic ids get @, the v2 exception, other names unchanged', () => {
    expect(vertexModelId('claude-opus-4-1-20250805')).toBe('claude-opus-4-1@20250805')
    expect(vertexModelId('claude-haiku-4-5-20251001')).toBe('claude-haiku-4-5@20251001')
    expect(vertexModelId('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet-v2@20241022')
    expect(vertexModelId('claude-3-5-sonnet-20240620')).toBe('claude-3-5-sonnet@20240620')
    expect(vertexModelId('claude-sonnet-4-5@20250929')).toBe('claude-sonnet-4-5@20250929')
    expect(vertexModelId('claude-sonnet-4-6')).toBe('claude-sonnet-4-6')
    expect(vertexModelId('gemini-2.0-flash-001')).toBe('gemini-2.0-flash-001')
  })

  test('embeddings: predict for text-embedding and gemini-embedding-001, embedContent for newer Gemini ones', () => {
    expect(vertexEmbeddingMethod('text-embedding-005')).toBe('predict')
    expect(vertexEmbeddingMethod('text-multilingual-embedding-002')).toBe('predict')
    expect(vertexEmbeddingMethod('gemini-embedding-001')).toBe('predict')
    expect(vertexEmbeddingMethod('gemini-embedding-2')).toBe('embedContent')
  })
})

describe('vertexRegion from the channel\'s other field', () => {
  test('a plain region name; empty is global', () => {
    expect(vertexRegion('us-central1', 'gemini-2.5-pro')).toBe('us-central1')
    expect(vertexRegion(' europe-west4 ')).toBe('europe-west4')
    expect(vertexRegion('')).toBe('global')
    expect(vertexRegion(null)).toBe('global')
    expect(vertexRegion(undefined, 'x')).toBe('global')
  })

  test('a JSON map: the requested model first, then the upstream model, then default, else global', () => {
    const other = JSON.stringify({ default: 'us-central1', 'claude-3-5-sonnet-20240620': 'europe-west1', 'claude-sonnet-4-5@20250929': 'us-east5' })
    expect(vertexRegion(other, 'claude-3-5-sonnet-20240620')).toBe('europe-west1')
    expect(vertexRegion(other, 'sonnet', 'claude-sonnet-4-5@20250929')).toBe('us-east5')
    expect(vertexRegion(other, 'claude-3-5-sonnet-20240620', 'claude-sonnet-4-5@20250929')).toBe('europe-west1')
    expect(vertexRegion(other, 'gemini-2.5-pro')).toBe('us-central1')
    expect(vertexRegion('{"claude-opus-4-1@20250805": "us-east5"}', 'gemini-2.5-pro')).toBe('global')
  })

  test('broken JSON, a non-string region, a bad region name: 400s naming other', () => {
    const cases: [string, string][] = [
      ['{"default": "us-central1"', 'not valid JSON'],
      ['{"default": 5}', 'the region for "default" must be a region name'],
      ['{"m": ""}', 'the region for "m" must be a region name'],
      ['["us-central1"]', 'is not a Google Cloud region name'],
      ['us-central1.evil.com', 'is not a Google Cloud region name'],
      ['{"default": "US Central"}', 'is not a Google Cloud region name'],
    ]
    for (const [other, message] of cases) {
      let error: VertexConfigError | undefined
      try {
        vertexRegion(other, 'm')
      } catch (e) {
        error = e as VertexConfigError
      }
      expect(error, other).toBeInstanceOf(VertexConfigError)
      expect(error!.message, other).toContain(message)
      expect(error!.param).toBe('other')
    }
  })
})
