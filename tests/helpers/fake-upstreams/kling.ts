import { createHmac, timingSafeEqual } from 'node:crypto'
import { createTaskStore } from './task-store'

/**
 * Kling's API as documented (app.klingai.com/global/dev/document-api): every call carries `Authorization: Bearer
 * <JWT>`, HS256 with the secret key, `iss` the access key, valid between `nbf` and `exp` (checked on `now`, the
 * test's clock); `POST /v1/videos/{text2video,image2video}` answers `{code: 0, data: {task_id, task_status}}`;
 * `GET …/{task_id}` advances the task (task-store's script) and answers `task_status` submitted / processing /
 * succeed (with `task_result.videos[0].url`) / failed; a task it does not know is code 1203. A prompt with `banned`
 * is refused with code 1301.
 */
export const KLING_VIDEO = Uint8Array.from({ length: 50_000 }, (_, i) => (i * 7) % 256)

export async function startFakeKling(accessKey: string, secretKey: string, now: () => number) {
  const store = createTaskStore('kling-')
  const bodies: Record<string, unknown>[] = []
  const refusals: string[] = []
  const verify = (header: string | null): string | undefined => {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1]
    const [head, claims, signature] = (token ?? '').split('.')
    if (!head || !claims || !signature) return 'no JWT'
    const expected = createHmac('sha256', secretKey).update(`${head}.${claims}`).digest()
    const given = Buffer.from(signature, 'base64url')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad signature'
    const { iss, exp, nbf } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { iss: string; exp: number; nbf: number }
    const seconds = Math.floor(now() / 1000)
    if (iss !== accessKey) return 'wrong issuer'
    if (!(nbf <= seconds && seconds < exp)) return 'expired or not yet valid'
    return undefined
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      // the CDN the finished videos are on: public, as Kling's are
      if (new URL(request.url).pathname.startsWith('/cdn/')) return new Response(KLING_VIDEO, { headers: { 'content-type': 'video/mp4', 'content-length': String(KLING_VIDEO.length) } })
      const refused = verify(request.headers.get('authorization'))
      if (refused) {
        refusals.push(refused)
        return Response.json({ code: 1004, message: `Auth failed: ${refused}`, request_id: 'r' }, { status: 401 })
      }
      const path = new URL(request.url).pathname
      const submit = /^\/v1\/videos\/(text2video|image2video)$/.exec(path)
      if (request.method === 'POST' && submit) {
        const body = (await request.json()) as Record<string, unknown>
        bodies.push({ ...body, route: submit[1] })
        if (String(body.prompt).includes('banned')) return Response.json({ code: 1301, message: 'Trigger the content security policy', request_id: 'r' })
        const task = store.add(submit[1]!, String(body.prompt ?? ''))
        return Response.json({ code: 0, message: 'SUCCEED', request_id: 'r', data: { task_id: task.id, task_status: 'submitted', created_at: task.submitTime, updated_at: task.submitTime } })
      }
      const fetch = /^\/v1\/videos\/(text2video|image2video)\/([^/]+)$/.exec(path)
      if (request.method === 'GET' && fetch) {
        const [task] = store.poll([fetch[2]!])
        if (!task || task.action !== fetch[1]) return Response.json({ code: 1203, message: 'task not found', request_id: 'r' })
        const status = task.status === 'SUCCESS' ? 'succeed' : task.status === 'FAILURE' ? 'failed' : 'processing'
        const data = {
          task_id: task.id,
          task_status: status,
          task_status_msg: status === 'failed' ? 'Failure to pass the risk control system' : '',
          created_at: task.submitTime,
          updated_at: Date.now(),
          task_result: status === 'succeed' ? { videos: [{ id: `v-${task.id}`, url: `${url()}/cdn/${task.id}.mp4`, duration: '5.1' }] } : undefined,
        }
        return Response.json({ code: 0, message: 'SUCCEED', request_id: 'r', data })
      }
      return Response.json({ code: 1200, message: 'no route' }, { status: 404 })
    },
  })
  const url = (): string => `http://127.0.0.1:${server.port}`
  return { url: url(), store, bodies, refusals, stop: () => server.stop(true) }
}
