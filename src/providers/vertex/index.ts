/** Google Vertex AI (channel type 41): URLs, regions and the Anthropic body rules. Signing is in ../signing/. */
export * from './urls'
export * from './anthropic-body'
