import type { tokens as en } from '../en/tokens'

export const tokens: Record<keyof typeof en, string> = {
}
