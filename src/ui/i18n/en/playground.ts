export const playground = {
} as const
