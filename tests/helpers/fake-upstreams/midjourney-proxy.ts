import { createTaskStore, type FakeTask } from './task-store'

/**
 * A midjourney-proxy (novicezk/midjourney-proxy's documented API): `POST /mj/submit/{imagine,change,action,blend,
 * describe,modal,shorten}` answer `{code: 1, description, result: <task id>}` (24 for a prompt with `banned`),
 * `/mj/submit/upload-discord-images` answers the image URLs, `POST /mj/task/list-by-condition {ids}` the tasks,
 * `GET /mj/task/{id}/image-seed` the seed. Under `/{mode}/mj/…` too. The key is checked in `mj-api-secret`.
 */
export async function startFakeMidjourney(secret: string, options: { hostsImages?: boolean } = {}) {
  const store = createTaskStore('17')
  const submits: { path: string; body: Record<string, unknown> }[] = []
  let imageBase = 'https://cdn.example'
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      // a CDN's images need no secret
      const image = /^\/images\/([^/]+)\.png$/.exec(url.pathname)
      if (options.hostsImages && request.method === 'GET' && image) return imageOf(store.tasks.get(image[1]!))
      if (request.headers.get('mj-api-secret') !== secret) return Response.json({ code: 401, description: 'bad secret' }, { status: 401 })
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
        return Response.json(store.poll(ids).map((task) => view(task, imageBase)))
      }
      const seed = /^\/mj\/task\/([^/]+)\/image-seed$/.exec(path)
      if (request.method === 'GET' && seed) return Response.json({ code: 1, description: 'success', result: `seed-${seed[1]}` })
      return Response.json({ error: 'not found' }, { status: 404 })
    },
  })
  if (options.hostsImages) imageBase = `http://127.0.0.1:${server.port}/images`
  return { url: `http://127.0.0.1:${server.port}`, store, submits, stop: () => server.stop(true) }
}

/** The image bytes a finished task's imageUrl serves (`hostsImages`): a PNG; a prompt with `html` gets a web page, `huge` 33 MB without a length. */
export const fakeMjImage = (id: string) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new TextEncoder().encode(`image of ${id}`)])

function imageOf(task: FakeTask | undefined): Response {
  if (!task || task.status !== 'SUCCESS') return new Response('not found', { status: 404 })
  if (task.prompt.includes('html')) return new Response('<html>login</html>', { headers: { 'content-type': 'text/html' } })
  if (task.prompt.includes('huge')) {
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 33) return controller.close()
        sent++
        controller.enqueue(new Uint8Array(1024 * 1024))
      },
    })
    return new Response(body, { headers: { 'content-type': 'image/png' } })
  }
  return new Response(fakeMjImage(task.id), { headers: { 'content-type': 'image/png' } })
}

function view(task: FakeTask, imageBase: string) {
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
    imageUrl: done ? `${imageBase}/${task.id}.png` : '',
    status: task.status,
    progress: task.progress,
    failReason: task.status === 'FAILURE' ? 'job failed at Midjourney' : '',
    buttons: done ? [{ customId: `MJ::JOB::upsample::1::${task.id}`, emoji: '', label: 'U1', type: 2, style: 2 }] : [],
    properties: { finalPrompt: task.prompt },
  }
}
