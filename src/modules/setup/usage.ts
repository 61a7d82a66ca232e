import type { OptionStore } from '../../options/store'

/** What the instance is for, asked once at setup: it decides the options a newcomer would otherwise hunt for. */
export const SETUP_USAGES = ['self', 'team', 'public'] as const
export type SetupUsage = (typeof SETUP_USAGES)[number]

/**
 * The options each answer sets. Just me and a team use models without prices (self-use mode: nothing to price
 * before the first request) and keep sign-ups closed (the root adds a team's members); a public instance bills,
 * so prices are required and anyone may register.
 */
const USAGE_OPTIONS: Record<SetupUsage, Record<string, boolean>> = {
  self: { SelfUseModeEnabled: true, RegisterEnabled: false },
  team: { SelfUseModeEnabled: true, RegisterEnabled: false },
  public: { SelfUseModeEnabled: false, RegisterEnabled: true },
}

/** new-api's setup sends only `SelfUseModeEnabled`: true reads as "just me", false as "public". */
export function usageOf(body: { usage?: SetupUsage; SelfUseModeEnabled?: boolean }): SetupUsage | undefined {
  if (body.usage) return body.usage
  if (body.SelfUseModeEnabled === undefined) return undefined
  return body.SelfUseModeEnabled ? 'self' : 'public'
}

export async function applyUsage(options: Pick<OptionStore, 'set'>, usage: SetupUsage): Promise<void> {
  for (const [key, value] of Object.entries(USAGE_OPTIONS[usage])) await options.set(key, value)
}
