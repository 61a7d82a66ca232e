export const users = {
} as const
