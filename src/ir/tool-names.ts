import type { Tool, ToolCallPart } from './request.ts'

/**
 * Function names on the wire of protocols without tool namespaces.
 *
 * A Responses client (Codex) groups function tools in `namespace` tools and calls them as
 * `{type: "function_call", namespace, name}`. Chat, Anthropic and Gemini only know flat function names,
 * limited to 64 characters of `[a-zA-Z0-9_-]` (Gemini also allows `.` and `:`; we stay within the common
 * set). A namespaced tool is sent there as `<namespace>__<name>`; when that is too long, not allowed, or
 * collides with another tool, it is cut and suffixed with a hash of the pair. The mapping is a pure function
 * of the request's tool list, so the encoder that names the tools and the encoder that shows the answer to
 * the client (both see the same decoded request) agree without sharing state.
 */
const NAMESPACE_SEPARATOR = '__'
const MAX = 64

export interface ToolNames {
  /** Wire name of a (namespace, name) pair; plain names pass unchanged. */
  wire(namespace: string | undefined, name: string): string
  /** Wire name of a tool call of the conversation. */
  call(part: Pick<ToolCallPart, 'name' | 'namespace'>): string
  /** A wire name from an upstream answer back to the client's (namespace, name); unknown names pass unchanged. */
  parse(wire: string): { name: string; namespace?: string }
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(16).padStart(8, '0')
}

function sanitize(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]/g, '_')
}

/** The preferred flat name of a namespaced tool, before collision handling. */
export function flatToolName(namespace: string, name: string): string {
  const plain = `${namespace}${NAMESPACE_SEPARATOR}${name}`
  const clean = sanitize(plain)
  if (clean === plain && clean.length <= MAX) return clean
  return `${clean.slice(0, MAX - 9)}_${fnv1a(`${namespace}\u0000${name}`)}`
}

const key = (namespace: string, name: string) => `${namespace}\u0000${name}`

export function toolNames(tools: readonly Tool[]): ToolNames {
  const toWire = new Map<string, string>()
  const fromWire = new Map<string, { name: string; namespace: string }>()
  const taken = new Set<string>()
  for (const t of tools) if (t.kind === 'function' && !t.namespace) taken.add(t.name)
  for (const t of tools) {
    if (t.kind !== 'function' || !t.namespace || toWire.has(key(t.namespace, t.name))) continue
    let wire = flatToolName(t.namespace, t.name)
    if (taken.has(wire)) wire = `${wire.slice(0, MAX - 9)}_${fnv1a(key(t.namespace, t.name))}`
    for (let n = 2; taken.has(wire); n++) wire = `${wire.slice(0, MAX - 12)}_${n}`
    taken.add(wire)
    toWire.set(key(t.namespace, t.name), wire)
    fromWire.set(wire, { name: t.name, namespace: t.namespace })
  }
  const wire = (namespace: string | undefined, name: string) =>
    namespace ? (toWire.get(key(namespace, name)) ?? flatToolName(namespace, name)) : name
  return {
    wire,
    call: (part) => wire(part.namespace, part.name),
    parse: (w) => fromWire.get(w) ?? { name: w },
  }
}

/**
 * Index of `tools[i]` in the client's own list: a Responses `namespace` tool is decoded into one function
 * tool per member, so consecutive members of one namespace count as one client tool. Used to name the
 * offending field in errors.
 */
export function clientToolIndex(tools: readonly Tool[], i: number): number {
  let index = -1
  let prev: string | undefined
  for (let j = 0; j <= i && j < tools.length; j++) {
    const t = tools[j]!
    const ns = t.kind === 'function' ? t.namespace : undefined
    if (!(ns && ns === prev)) index++
    prev = ns
  }
  return index
}
