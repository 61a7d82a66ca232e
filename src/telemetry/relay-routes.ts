import { OPERATIONS } from '../operations'

/**
 * The `route` label values of the relay series: the generation routes the relay serves, as declared (Gemini's
 * model in the path is `{model}`; an operation's alias counts as its main path). Nothing a client writes in a
 * path becomes a label value of its own.
 */
const GEMINI_GENERATE = '/v1beta/models/{model}:generateContent'
const GEMINI_STREAM = '/v1beta/models/{model}:streamGenerateContent'
const CHAT_ROUTES = ['/v1/chat/completions', '/pg/chat/completions', '/v1/responses', '/v1/responses/compact', '/v1/messages'] as const

/** operation path or alias → the label (its main path) */
const OPERATION_ROUTES = new Map<string, string>(OPERATIONS.flatMap((op) => [op.path, ...(op.aliases ?? [])].map((path) => [path, op.path] as const)))

export const RELAY_ROUTES: ReadonlySet<string> = new Set([...CHAT_ROUTES, GEMINI_GENERATE, GEMINI_STREAM, ...OPERATION_ROUTES.values()])

/** The label of a route outside the table: a protocol added without its route here is counted, under this. */
export const OTHER_ROUTE = 'other'

/** The route a settled request came in on: chat protocols by id, operations by their path (their `protocol`). */
export function routeOfProtocol(protocol: string, playground: boolean, stream: boolean): string {
  switch (protocol) {
    case 'openai-chat':
      return playground ? '/pg/chat/completions' : '/v1/chat/completions'
    case 'openai-responses':
      return '/v1/responses'
    case '/v1/responses/compact':
      return protocol
    case 'anthropic':
      return '/v1/messages'
    case 'gemini':
      return stream ? GEMINI_STREAM : GEMINI_GENERATE
    default:
      return OPERATION_ROUTES.get(protocol) ?? OTHER_ROUTE
  }
}

/** The same label from a request path; undefined for paths that are not generation requests. */
export function routeOfPath(path: string): string | undefined {
  if ((CHAT_ROUTES as readonly string[]).includes(path)) return path
  const operation = OPERATION_ROUTES.get(path)
  if (operation) return operation
  const gemini = /^\/v1(?:beta)?\/models\/[^/]+:(generateContent|streamGenerateContent)$/.exec(path)
  return gemini ? (gemini[1] === 'generateContent' ? GEMINI_GENERATE : GEMINI_STREAM) : undefined
}
