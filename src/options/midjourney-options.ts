import type { OptionDefinition } from './option-definition'

/** Midjourney's results (src/tasks/mj-image.ts, docs/tasks.md). */
export const MIDJOURNEY_OPTIONS: Record<string, OptionDefinition> = {
  MjForwardUrlEnabled: {
    type: 'boolean',
    default: 'false',
    description: "a Midjourney task's imageUrl is answered as the gateway's own /mj/image/{id} (ServerAddress, else the address the client called), which fetches the image for the task's owner; off: the upstream's link (new-api's MjForwardUrlEnabled)",
  },
}
