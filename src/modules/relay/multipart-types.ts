/**
 * Bun's `formData()` ignores a file part's own `Content-Type` and guesses the type from the filename's extension
 * (oven-sh/bun#39884, #33012): a browser's `blob` upload of `audio/webm` comes out untyped, `a.wav` as
 * `audio/x-wav`. The upstream then gets a file whose type is not the one the client sent (OpenAI identifies audio
 * by name and type). This reads the declared types from the part headers of the raw body and puts them back on
 * the parsed files (a retyped File shares the bytes; nothing is copied).
 */
export function restoreDeclaredTypes(form: FormData, body: Uint8Array, contentType: string): FormData {
  const boundary = boundaryOf(contentType)
  if (!boundary) return form
  // per field name, the declared types of its file parts in order (Bun keeps the body's order)
  const queues = new Map<string, string[]>()
  for (const part of declaredFileTypes(body, boundary)) queues.set(part.name, [...(queues.get(part.name) ?? []), part.type])
  let changed = false
  const entries = [...form.entries()].map(([name, entry]): [string, string | File] => {
    const value = entry as FormDataEntryValue
    if (!(value instanceof File)) return [name, value]
    const type = queues.get(name)?.shift()
    if (!type || type === value.type) return [name, value]
    changed = true
    // Bun parses a part with an empty filename as a File whose name is undefined
    return [name, new File([value], value.name ?? '', { type, lastModified: value.lastModified })]
  })
  if (!changed) return form
  const out = new FormData()
  for (const [name, value] of entries) out.append(name, value)
  return out
}

function boundaryOf(contentType: string): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  return match?.[1] ?? match?.[2]
}

/** The file parts in body order: field name and declared `Content-Type` ('' when the part has none). */
export function declaredFileTypes(body: Uint8Array, boundary: string): { name: string; type: string }[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const delimiter = Buffer.from(`--${boundary}`)
  const parts: { name: string; type: string }[] = []
  let at = bytes.indexOf(delimiter)
  while (at >= 0) {
    const headersStart = at + delimiter.length + 2
    if (bytes[at + delimiter.length] === 0x2d && bytes[at + delimiter.length + 1] === 0x2d) break // the closing `--boundary--`
    const headersEnd = bytes.indexOf('\r\n\r\n', headersStart)
    if (headersEnd < 0) break
    const part = fileHeader(bytes.toString('latin1', headersStart, headersEnd))
    if (part) parts.push(part)
    // the next delimiter starts a line: a part's bytes may hold `--boundary` only after a CRLF that ends the part
    const next = bytes.indexOf(Buffer.concat([CRLF, delimiter]), headersEnd + 4)
    at = next < 0 ? -1 : next + 2
  }
  return parts
}

const CRLF = Buffer.from('\r\n')

/** A part's headers → its name and declared type, for file parts (those with a filename) only. */
function fileHeader(headers: string): { name: string; type: string } | undefined {
  let name: string | undefined
  let isFile = false
  let type = ''
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':')
    const header = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (header === 'content-disposition') {
      name = /\bname="([^"]*)"/i.exec(value)?.[1]
      isFile = /\bfilename\*?=/i.test(value)
    } else if (header === 'content-type') type = value
  }
  return name !== undefined && isFile ? { name, type } : undefined
}
