/**
 * Set top-level fields of a JSON object text while keeping every other byte as the client sent it
 * (spacing, key order, escapes, number spelling). Passthrough must not re-serialise what it only relays.
 * Returns undefined when the text is not a single JSON object (the caller then re-serialises).
 */
export function patchTopLevel(raw: string, patch: Record<string, unknown>): string | undefined {
  const spans = topLevelSpans(raw)
  if (!spans) return undefined
  const edits: { start: number; end: number; text: string }[] = []
  const inserts: string[] = []
  for (const [key, value] of Object.entries(patch)) {
    const span = spans.values.get(key)
    if (span) edits.push({ start: span.start, end: span.end, text: JSON.stringify(value) })
    else inserts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`)
  }
  if (inserts.length) edits.push({ start: spans.open + 1, end: spans.open + 1, text: inserts.join(',') + (spans.values.size ? ',' : '') })
  let out = raw
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end)
  return out
}

interface Spans {
  /** index of the opening brace */
  open: number
  /** value span of each top-level key (the last one when a key repeats, as JSON.parse keeps it) */
  values: Map<string, { start: number; end: number }>
}

const WS = new Set([' ', '\t', '\n', '\r'])

function topLevelSpans(raw: string): Spans | undefined {
  let i = 0
  const ws = () => {
    while (i < raw.length && WS.has(raw[i]!)) i++
  }
  const string = (): boolean => {
    if (raw[i] !== '"') return false
    i++
    while (i < raw.length) {
      const c = raw[i]
      if (c === '\\') i += 2
      else if (c === '"') return (i++, true)
      else i++
    }
    return false
  }
  const value = (): boolean => {
    const c = raw[i]
    if (c === '"') return string()
    if (c === '{' || c === '[') {
      let depth = 0
      while (i < raw.length) {
        const d = raw[i]
        if (d === '"') {
          if (!string()) return false
          continue
        }
        if (d === '{' || d === '[') depth++
        else if (d === '}' || d === ']') depth--
        i++
        if (depth === 0) return true
      }
      return false
    }
    const start = i
    while (i < raw.length && !WS.has(raw[i]!) && raw[i] !== ',' && raw[i] !== '}' && raw[i] !== ']') i++
    return i > start
  }

  ws()
  if (raw[i] !== '{') return undefined
  const open = i++
  const values = new Map<string, { start: number; end: number }>()
  ws()
  if (raw[i] === '}') return trailing(i + 1) ? { open, values } : undefined
  for (;;) {
    ws()
    const keyStart = i
    if (!string()) return undefined
    let key: string
    try {
      key = JSON.parse(raw.slice(keyStart, i)) as string
    } catch {
      return undefined
    }
    ws()
    if (raw[i++] !== ':') return undefined
    ws()
    const start = i
    if (!value()) return undefined
    values.set(key, { start, end: i })
    ws()
    const sep = raw[i++]
    if (sep === ',') continue
    if (sep === '}') return trailing(i) ? { open, values } : undefined
    return undefined
  }

  function trailing(from: number): boolean {
    for (let j = from; j < raw.length; j++) if (!WS.has(raw[j]!)) return false
    return true
  }
}
