import type { OptionStore } from '../options/store'
import type { ScopeLimits as Limits } from '../coord'

type GroupOverrides = Record<string, Partial<Record<'token_rpm' | 'token_tpm' | 'token_concurrency' | 'user_rpm' | 'user_tpm' | 'user_concurrency', number>>>

/** The rate limits of a group's tokens and users: the defaults, with the group's overrides laid over them. */
export function limitsFor(options: Pick<OptionStore, 'get'>, group: string): { token: Limits; user: Limits } {
  const o = options.get<GroupOverrides>('GroupRateLimits')[group] ?? {}
  return {
    token: {
      rpm: o.token_rpm ?? options.get<number>('TokenRpmLimit'),
      tpm: o.token_tpm ?? options.get<number>('TokenTpmLimit'),
      concurrency: o.token_concurrency ?? options.get<number>('TokenConcurrencyLimit'),
    },
    user: {
      rpm: o.user_rpm ?? options.get<number>('UserRpmLimit'),
      tpm: o.user_tpm ?? options.get<number>('UserTpmLimit'),
      concurrency: o.user_concurrency ?? options.get<number>('UserConcurrencyLimit'),
    },
  }
}
