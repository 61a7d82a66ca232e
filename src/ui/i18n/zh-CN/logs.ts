import type { logs as en } from '../en/logs'

export const logs: Record<keyof typeof en, string> = {
}
