import type { Coordination } from '../coord'
import type { EmailCodeRepo, UserRepo } from '../db/repos'
import type { OptionStore } from '../options/store'
import type { Mailer } from './mailer'

/** What the mail flows use of the app: the options, the users and codes tables, the limits, the mailer, a log. */
export interface MailFlowDeps {
  options: Pick<OptionStore, 'get'>
  users: Pick<UserRepo, 'findByEmail' | 'findById' | 'setPassword'>
  codes: EmailCodeRepo
  coord: Pick<Coordination, 'windowHit'>
  mailer: Mailer
  cryptoSecret: string
  /** a mail sent in the background failed (the answer went out already) */
  onBackgroundFailure(what: string, error: unknown): void
}
