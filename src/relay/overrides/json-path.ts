/**
 * new-api's override paths (gjson's dotted form, as its param_override operations write them): `a.b`, `messages.0.role`,
 * `messages.-1` (the last item), `\.` for a dot inside a key. Read, set and delete on a parsed JSON value.
 */
type Json = unknown
type Container = Record<string, Json> | Json[]

function splitPath(path: string): string[] {
  const parts: string[] = []
  let current = ''
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!
    if (c === '\\' && i + 1 < path.length) current += path[++i]
    else if (c === '.') {
      parts.push(current)
      current = ''
    } else current += c
  }
  parts.push(current)
  return parts
}

const isContainer = (value: Json): value is Container => typeof value === 'object' && value !== null

/** An array index, negative from the end; undefined when `part` is not one. */
function indexIn(array: Json[], part: string, forWrite: boolean): number | undefined {
  if (!/^-?\d+$/.test(part)) return undefined
  const n = Number(part)
  if (n < 0) return array.length + n >= 0 ? array.length + n : forWrite && n === -1 ? array.length : undefined
  return n
}

function child(container: Container, part: string): { found: boolean; value: Json } {
  if (Array.isArray(container)) {
    const i = indexIn(container, part, false)
    return i === undefined || i >= container.length ? { found: false, value: undefined } : { found: true, value: container[i] }
  }
  return Object.hasOwn(container, part) ? { found: true, value: container[part] } : { found: false, value: undefined }
}

export function getPath(root: Json, path: string): { found: boolean; value: Json } {
  let node: Json = root
  for (const part of splitPath(path)) {
    if (!isContainer(node)) return { found: false, value: undefined }
    const next = child(node, part)
    if (!next.found) return next
    node = next.value
  }
  return { found: true, value: node }
}

/** Sets the value, making the objects (or, for a numeric part, arrays) on the way. False when a scalar is in the way. */
export function setPath(root: Json, path: string, value: Json): boolean {
  const parts = splitPath(path)
  let node: Json = root
  for (let i = 0; i < parts.length; i++) {
    if (!isContainer(node)) return false
    const part = parts[i]!
    const last = i === parts.length - 1
    const made = (): Json => (/^\d+$/.test(parts[i + 1] ?? '') ? [] : {})
    if (Array.isArray(node)) {
      const index = indexIn(node, part, true)
      if (index === undefined) return false
      if (last) node[index] = value
      else if (!isContainer(node[index])) node[index] = made()
      node = node[index]
    } else {
      if (part === '__proto__') return false
      if (last) node[part] = value
      else if (!isContainer(node[part])) node[part] = made()
      node = node[part]
    }
  }
  return true
}

export function deletePath(root: Json, path: string): boolean {
  const parts = splitPath(path)
  const parent = parts.length === 1 ? { found: true, value: root } : getPath(root, parts.slice(0, -1).map(escapePart).join('.'))
  const node = parent.value
  const last = parts.at(-1)!
  if (!parent.found || !isContainer(node)) return false
  if (Array.isArray(node)) {
    const i = indexIn(node, last, false)
    if (i === undefined || i >= node.length) return false
    node.splice(i, 1)
    return true
  }
  if (!Object.hasOwn(node, last)) return false
  delete node[last]
  return true
}

const escapePart = (part: string): string => part.replaceAll('\\', '\\\\').replaceAll('.', '\\.')
