import { describe, expect, test } from 'bun:test'
import { declaredFileTypes, restoreDeclaredTypes } from '../../src/modules/relay/multipart-types'

/** A multipart body as a client serializes it, and Bun's own parse of it. */
async function parsed(parts: [string, string | File][]) {
  const form = new FormData()
  for (const [name, value] of parts) form.append(name, value)
  const response = new Response(form)
  const type = response.headers.get('content-type')!
  const body = new Uint8Array(await response.arrayBuffer())
  return { body, type, form: await new Response(body, { headers: { 'content-type': type } }).formData() }
}

describe('file types declared in the part headers', () => {
  test("Bun's parse guesses from the name; the declared types come back, files in order, bytes shared", async () => {
    const a = new File(['first'], 'a.bin', { type: 'image/png' })
    const b = new File(['second'], 'b.wav', { type: 'audio/wav' })
    const c = new File(['third'], 'c.bin', { type: 'image/webp' })
    const { body, type, form } = await parsed([['model', 'm'], ['image[]', a], ['note', '--not a boundary'], ['image[]', c], ['file', b]])
    expect((form.getAll('image[]') as File[]).map((f) => f.type)).not.toEqual(['image/png', 'image/webp'])
    const boundary = /boundary=(.+)$/.exec(type)![1]!
    expect(declaredFileTypes(body, boundary)).toEqual([
      { name: 'image[]', type: 'image/png' },
      { name: 'image[]', type: 'image/webp' },
      { name: 'file', type: 'audio/wav' },
    ])
    const restored = restoreDeclaredTypes(form, body, type)
    expect([...restored.keys()]).toEqual(['model', 'image[]', 'note', 'image[]', 'file'])
    const images = restored.getAll('image[]') as File[]
    expect(images.map((f) => [f.name, f.type])).toEqual([['a.bin', 'image/png'], ['c.bin', 'image/webp']])
    expect(await images[1]!.text()).toBe('third')
    expect((restored.get('file') as File).type).toBe('audio/wav')
    expect(restored.get('note')).toBe('--not a boundary')
  })

  test('a form whose types Bun got right is returned as it is', async () => {
    const { body, type, form } = await parsed([['file', new File(['x'], 'a.png', { type: 'image/png' })]])
    expect(restoreDeclaredTypes(form, body, type)).toBe(form)
  })
})
