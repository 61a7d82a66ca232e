import { createHash, createHmac } from 'node:crypto'
import { createTaskStore } from './task-store'

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/**
 * Volcengine's signature check, rebuilt from what arrived (written from Volcengine's signing docs, sharing nothing
 * with the signer): the canonical request over the method, path, sorted query, the headers the Authorization names
 * and the body's SHA-256 (which must match X-Content-Sha256), signed with HMAC chains of secret, day, region, service.
 */
function verifyVolc(request: Request, body: Uint8Array, accessKey: string, secretKey: string): string | undefined {
  const auth = /^HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(request.headers.get('authorization') ?? '')
  if (!auth) return 'no signature'
  const [, ak, day, region, service, signedHeaders, signature] = auth
  if (ak !== accessKey) return 'unknown access key'
  if (request.headers.get('x-content-sha256') !== sha256(body)) return 'body hash differs'
  const url = new URL(request.url)
  const query = [...url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
  const names = signedHeaders!.split(';')
  const headers = names.map((name) => `${name}:${(name === 'host' ? url.host : (request.headers.get(name) ?? '')).trim()}\n`).join('')
  const canonical = [request.method, url.pathname, query, headers, signedHeaders, sha256(body)].join('\n')
  const scope = `${day}/${region}/${service}/request`
  const toSign = ['HMAC-SHA256', request.headers.get('x-date') ?? '', scope, sha256(canonical)].join('\n')
  const key = hmac(hmac(hmac(hmac(secretKey, day!), region!), service!), 'request')
  return createHmac('sha256', key).update(toSign).digest('hex') === signature ? undefined : 'signature does not match'
}

/**
 * Jimeng on Volcengine's visual API as documented (volcengine.com/docs/85621): every call signed; `POST
 * /?Action=CVSync2AsyncSubmitTask&Version=2022-08-31 {req_key, prompt …}` answers `{code: 10000, data: {task_id}}`;
 * `…CVSync2AsyncGetResult {req_key, task_id}` advances the task (task-store's script) and answers `data.status`
 * generating / done (`video_url`) / not_found; a failing one answers code 50500. `banned` is refused with 50413.
 */
export async function startFakeJimeng(accessKey: string, secretKey: string) {
  const store = createTaskStore('jm')
  const bodies: Record<string, unknown>[] = []
  const refusals: string[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request): Promise<Response> {
      const url = new URL(request.url)
      if (url.pathname.startsWith('/cdn/')) return new Response(new Uint8Array([1, 2, 3, 4]), { headers: { 'content-type': 'video/mp4' } })
      const raw = await request.bytes()
      const refused = verifyVolc(request, raw, accessKey, secretKey)
      if (refused) {
        refusals.push(refused)
        return Response.json({ ResponseMetadata: { Error: { Code: 'SignatureDoesNotMatch', Message: refused } } }, { status: 401 })
      }
      const body = JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>
      const action = url.searchParams.get('Action')
      if (action === 'CVSync2AsyncSubmitTask') {
        bodies.push(body)
        if (String(body.prompt).includes('banned')) return Response.json({ code: 50413, message: 'Post Text Risk Not Pass', data: null })
        return Response.json({ code: 10000, message: 'Success', request_id: 'r', data: { task_id: store.add(String(body.req_key), String(body.prompt)).id } })
      }
      if (action === 'CVSync2AsyncGetResult') {
        bodies.push(body)
        const [task] = store.poll([String(body.task_id)])
        if (!task) return Response.json({ code: 10000, message: 'Success', data: { status: 'not_found' } })
        if (task.action !== body.req_key) return Response.json({ code: 50400, message: 'req_key differs', data: null })
        if (task.status === 'FAILURE') return Response.json({ code: 50500, message: 'Internal Error', data: null })
        const done = task.status === 'SUCCESS'
        return Response.json({ code: 10000, message: 'Success', data: { status: done ? 'done' : 'generating', video_url: done ? `http://127.0.0.1:${server.port}/cdn/${task.id}.mp4` : '' } })
      }
      return Response.json({ code: 50404, message: 'no action' }, { status: 404 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, store, bodies, refusals, stop: () => server.stop(true) }
}
