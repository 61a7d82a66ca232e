export { providerFor } from './registry'
export { upstreamRequest } from './upstream'
