import type { OptionDefinition } from './option-definition'

const between = (low: number, high: number) => (value: unknown) => ((value as number) < low || (value as number) > high ? `must be between ${low} and ${high}` : undefined)

/** Video tasks (src/tasks/video/, docs/tasks.md): what a client may ask for, and what the gateway carries back. */
export const VIDEO_OPTIONS: Record<string, OptionDefinition> = {
  VideoMaxSeconds: { type: 'integer', default: '60', description: 'the longest clip (seconds) a video request may ask for; a video is priced per second, so this bounds its price', check: between(1, 600) },
  VideoContentMaxBytes: { type: 'integer', default: String(1 << 30), description: "bytes of one video carried through /v1/videos/{id}/content; a longer one is cut there", check: between(1 << 20, 16 * (1 << 30)) },
  VideoInputMaxBytes: { type: 'integer', default: String(10 << 20), description: 'bytes of one reference image a video request may upload or inline', check: between(1024, 64 << 20) },
}
