/** Gemini carries the model in the URL: a passed-through body goes on unchanged (no patch). */
export function probeBody(): Record<string, unknown> {
  return { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 1 } }
}
