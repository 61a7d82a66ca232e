/** Where a stored OpenAI response lives: the channel and key that created it, whose it is, and its model. */
export interface ResponseHome {
  channelId: number
  /** sha256 of the key, first 16 hex digits (never the key) */
  keyFp: string
  /** the user whose key created it: nobody else reaches it through the gateway */
  userId: number
  /** the model it was created with (the key's model limits are checked against it) */
  model: string
}

/**
 * Response id → its home (coord (i)), each with a TTL, shared by the nodes: a retrieve, delete, cancel or follow-up
 * turn reaches the upstream account that holds the response, whichever node created it. Redis keeps them by TTL;
 * one node keeps at most `maxEntries`; every method answers when Redis is away (from this node's own entries).
 */
export interface ResponseHomes {
  get(responseId: string): Promise<ResponseHome | undefined>
  /** settles once written (or failed: never rejects); a home that cannot be written is an unknown id later */
  set(responseId: string, home: ResponseHome, ttlMs: number, maxEntries: number): Promise<void>
  delete(responseId: string): void
}
