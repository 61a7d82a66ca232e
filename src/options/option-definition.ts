/** What every runtime setting declares: its type, default and a check of new values (the area files use it). */
type OptionType = 'boolean' | 'integer' | 'number' | 'string' | 'json'

export interface OptionDefinition {
  type: OptionType
  default: string
  description: string
  /** Extra check beyond the type; return an error message or undefined. */
  check?: (value: unknown) => string | undefined
  /** a password or key: sealed before it is stored, never shown, redacted from the manage log (options/secret-options.ts) */
  secret?: true
}
