// No imports: the console's channel form checks mappings with the same function before sending.

/** The first loop in a model mapping (requested → upstream), as the chain of names that closes it; `a → a` is no loop. */
export function findCycle(mapping: Readonly<Record<string, string>>): string[] | undefined {
  for (const start of Object.keys(mapping)) {
    const path = [start]
    let current = start
    for (;;) {
      const next = mapping[current]
      if (next === undefined || next === current) break
      if (next === start || path.includes(next)) return [...path, next]
      path.push(next)
      current = next
    }
  }
  return undefined
}
