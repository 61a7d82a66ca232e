export const profile = {
} as const
