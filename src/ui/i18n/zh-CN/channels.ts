import type { channels as en } from '../en/channels'

export const channels: Record<keyof typeof en, string> = {
}
