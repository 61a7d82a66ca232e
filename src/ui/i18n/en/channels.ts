export const channels = {
} as const
