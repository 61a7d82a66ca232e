import type { playground as en } from '../en/playground'

export const playground: Record<keyof typeof en, string> = {
}
