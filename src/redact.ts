/**
 * A database address as messages, logs and reports may show it: every password replaced by `***`, whatever
 * the form — a URL (`postgres://user:***@host/db`, the userinfo up to the LAST `@`, as URL parsers read it), Go's
 * MySQL DSN (`user:***@tcp(host:3306)/db`), a `password=` parameter or key-value pair, or something that is none
 * of these but holds `user:pass@`. The user name stays: it says which account was used.
 */
export function redactDsn(text: string): string {
  const params = text.replace(/(^|[?&;\s])(password|passwd|pwd|pass)=([^&;\s]*)/gi, (_, lead: string, key: string) => `${lead}${key}=***`)
  const scheme = params.indexOf('://')
  const start = scheme >= 0 ? scheme + 3 : 0
  const at = params.lastIndexOf('@')
  if (at < start) return params
  const colon = params.indexOf(':', start)
  if (colon < 0 || colon > at) return params
  return `${params.slice(0, colon + 1)}***${params.slice(at)}`
}
