// oidc-provider ships no types (its @types package lags the major): the little the test helper uses.
declare module 'oidc-provider' {
  import type { Server } from 'node:http'
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    listen(port: number, host: string): Server
  }
}
