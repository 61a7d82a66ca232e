import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A real Claude Code turn (tests/fixtures/clients/claude-code-tool-result-followup.json: system blocks, 24
 * tools, a tool_use / tool_result round) grown to about `targetBytes` of JSON with more rounds of the same
 * shape: the assistant reads a file, the user's tool_result carries its text. The files are this
 * repository's own sources (sorted, so the body is the same on every run): code and prose as agents send it,
 * about 3–4 bytes per token, not one token per byte.
 */
export function agentBody(targetBytes: number, model = 'claude-sonnet-4-5'): Record<string, any> {
  const fixture = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/clients/claude-code-tool-result-followup.json'), 'utf8'))
  const body = structuredClone(fixture.body) as Record<string, any>
  body.model = model
  const files = sources()
  const messages = body.messages as unknown[]
  const last = messages.pop()!
  let size = JSON.stringify(body).length
  for (let i = 0; size < targetBytes; i++) {
    const file = files[i % files.length]!
    const id = `toolu_${(i + 1).toString(16).padStart(24, '0')}`
    const room = targetBytes - size - 300
    const text = `${i >= files.length ? `(read again, pass ${Math.floor(i / files.length) + 1})\n` : ''}${file.text}`.slice(0, Math.max(room, 1))
    const turn = [
      { role: 'assistant', content: [{ type: 'text', text: `Reading ${file.path}.` }, { type: 'tool_use', id, name: 'Read', input: { file_path: `/work/main/${file.path}` } }] },
      { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: text }] },
    ]
    messages.push(...turn)
    size += JSON.stringify(turn).length + 2
  }
  messages.push(last)
  return body
}

let cached: { path: string; text: string }[] | undefined
function sources(): { path: string; text: string }[] {
  if (cached) return cached
  const root = join(import.meta.dir, '../..')
  const out: { path: string; text: string }[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(rel)
      else if (/\.(ts|md)$/.test(entry.name)) out.push({ path: rel, text: readFileSync(join(root, rel), 'utf8') })
    }
  }
  walk('src')
  walk('docs')
  return (cached = out)
}
