import { createTaskStore, type FakeTask } from './task-store'

/**
 * A midjourney-proxy (novicezk/midjourney-proxy's documented API): `POST /mj/submit/{imagine,change,action,blend,
 * describe,modal,shorten}` answer `{code: 1, description, result: <task id>}` (24 for a prompt with `banned`),
 * `/mj/submit/upload-discord-images` answers the image URLs, `POST /mj/task/list-by-condition {ids}` the tasks,
 * `GET /mj/task/{id}/image-seed` the seed. Under `/{mode}/mj/…` too. The key is checked in `mj-api-secret`.
 */
export async function startFakeMidjourney(secret: string) {
  const store = createTaskStore('17')
  const submits: { path: string; body: Record<string, unknown> }[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      if (request.headers.get('mj-api-secret') !== secret) return Response.json({ code: 401, description: 'bad secret' }, { status: 401 })
      const url = new URL(request.url)
      const path = url.pathname.replace(/^\/mj-(fast|turbo|relax)\/mj\//, '/mj/')
      if (request.method === 'POST' && path.startsWith('/mj/submit/')) {
        const body = (await request.json()) as Record<string, unknown>
        submits.push({ path: url.pathname, body })
        const route = path.slice('/mj/submit/'.length)
        if (route === 'upload-discord-images') return Response.json({ code: 1, description: 'success', result: ['https://cdn.example/upload-1.png'] })
        const prompt = typeof body.prompt === 'string' ? body.prompt : ''
        if (prompt.includes('banned')) return Response.json({ code: 24, description: 'banned prompt detected', result: null, properties: { bannedWord: 'banned' } })
        const task = store.add(route === 'imagine' ? 'IMAGINE' : route.toUpperCase(), prompt)
        return Response.json({ code: 1, description: 'Submit success', result: task.id, properties: {} })
      }
      if (request.method === 'POST' && path === '/mj/task/list-by-condition') {
        const { ids } = (await request.json()) as { ids: string[] }
        return Response.json(store.poll(ids).map(view))
      }
      const seed = /^\/mj\/task\/([^/]+)\/image-seed$/.exec(path)
      if (request.method === 'GET' && seed) return Response.json({ code: 1, description: 'success', result: `seed-${seed[1]}` })
      return Response.json({ error: 'not found' }, { status: 404 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, store, submits, stop: () => server.stop(true) }
}

function view(task: FakeTask) {
  const done = task.status === 'SUCCESS'
  return {
    id: task.id,
    action: task.action,
    prompt: task.prompt,
    promptEn: task.prompt,
    description: '/imagine ' + task.prompt,
    state: '',
    submitTime: task.submitTime,
    startTime: task.submitTime + 1,
    finishTime: done || task.status === 'FAILURE' ? task.submitTime + 2 : 0,
    imageUrl: done ? `https://cdn.example/${task.id}.png` : '',
    status: task.status,
    progress: task.progress,
    failReason: task.status === 'FAILURE' ? 'job failed at Midjourney' : '',
    buttons: done ? [{ customId: `MJ::JOB::upsample::1::${task.id}`, emoji: '', label: 'U1', type: 2, style: 2 }] : [],
    properties: { finalPrompt: task.prompt },
  }
}
