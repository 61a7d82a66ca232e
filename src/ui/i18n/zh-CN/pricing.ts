import type { pricing as en } from '../en/pricing'

export const pricing: Record<keyof typeof en, string> = {
}
