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
  const body = fixtureBody('claude-code-tool-result-followup', model)
  const messages = body.messages as unknown[]
  const last = messages.pop()!
  grow(body, messages, targetBytes, (i, path, text) => {
    const id = `toolu_${(i + 1).toString(16).padStart(24, '0')}`
    return [
      { role: 'assistant', content: [{ type: 'text', text: `Reading ${path}.` }, { type: 'tool_use', id, name: 'Read', input: { file_path: `/work/main/${path}` } }] },
      { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: text }] },
    ]
  })
  messages.push(last)
  return body
}

/** Codex CLI's follow-up turn (`/v1/responses`: exec_command calls and their output items) grown the same way. */
export function codexBody(targetBytes: number, model = 'gpt-5-codex'): Record<string, any> {
  return grownFixture('codex-responses-tool-followup', 'input', model, targetBytes, (id, path, text) => [
    { type: 'function_call', status: 'completed', id: `fc_${id}`, name: 'exec_command', arguments: JSON.stringify({ cmd: `cat ${path}` }), call_id: `call_${id}` },
    { type: 'function_call_output', call_id: `call_${id}`, output: text },
  ])
}

/** opencode's chat-completions follow-up turn (assistant tool_calls, `tool` messages) grown the same way. */
export function opencodeBody(targetBytes: number, model = 'gpt-4.1'): Record<string, any> {
  return grownFixture('opencode-chat-tool-followup', 'messages', model, targetBytes, (id, path, text) => [
    { role: 'assistant', content: '', tool_calls: [{ id: `call_${id}`, type: 'function', function: { name: 'read', arguments: JSON.stringify({ filePath: `/work/main/${path}` }) } }] },
    { role: 'tool', tool_call_id: `call_${id}`, content: text },
  ])
}

/** A captured follow-up whose `key` list (input items, messages) gets the rounds appended; `id` is the round's, hex. */
function grownFixture(name: string, key: string, model: string, targetBytes: number, round: (id: string, path: string, text: string) => unknown[]): Record<string, any> {
  const body = fixtureBody(name, model)
  grow(body, body[key] as unknown[], targetBytes, (i, path, text) => round((i + 1).toString(16).padStart(24, '0'), path, text))
  return body
}

function fixtureBody(name: string, model: string): Record<string, any> {
  const fixture = JSON.parse(readFileSync(join(import.meta.dir, `../fixtures/clients/${name}.json`), 'utf8'))
  return { ...(structuredClone(fixture.body) as Record<string, any>), model }
}

/** Appends rounds (each a file read and its text) to `items` until `body` is about `targetBytes` of JSON. */
function grow(body: unknown, items: unknown[], targetBytes: number, round: (i: number, path: string, text: string) => unknown[]): void {
  const files = sources()
  let size = JSON.stringify(body).length
  for (let i = 0; size < targetBytes; i++) {
    const file = files[i % files.length]!
    const room = targetBytes - size - 300
    const text = `${i >= files.length ? `(read again, pass ${Math.floor(i / files.length) + 1})\n` : ''}${file.text}`.slice(0, Math.max(room, 1))
    const turn = round(i, file.path, text)
    items.push(...turn)
    size += JSON.stringify(turn).length + 2
  }
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
