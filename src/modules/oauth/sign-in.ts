import { isUniqueViolation, type UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { Role, UserStatus } from '../../db/repos/user-roles'
import { countSignUp } from '../auth/register'
import { isValidUsername } from '../users/credentials'
import { usernameSkeleton } from '../users/username-skeleton'
import { oauthError } from './errors'
import type { ProviderProfile } from './profile'

type SignInDeps = Pick<AppDeps, 'repos' | 'options' | 'coord'>

/**
 * The user this provider identity signs in as: the one it is bound to, or a new user (RegisterEnabled, and
 * RegisterLimitPerHour from this address). Accounts are never joined by e-mail: an identity whose e-mail an
 * existing user has is refused (bind it from that user's profile instead), verified or not.
 */
export async function signInWith(deps: SignInDeps, provider: string, profile: ProviderProfile, input: { ip: string; aff: string }): Promise<{ user: UserRow; created: boolean }> {
  const { users, bindings } = deps.repos
  const boundId = await bindings.findUserId(provider, profile.id)
  if (boundId !== undefined) {
    const user = await users.findById(boundId)
    if (!user || user.status !== UserStatus.enabled) throw oauthError(403, 'user_disabled', 'this user is disabled')
    return { user, created: false }
  }
  await refuseEmailMatch(deps, provider, profile)
  if (!deps.options.get<boolean>('RegisterEnabled')) throw oauthError(403, 'registration_disabled', `no user is bound to this ${provider} account, and registration is disabled on this instance`)
  if ((await users.count()) === 0) throw oauthError(403, 'setup_pending', 'setup is not done yet: create the root user first')
  await countSignUp(deps as AppDeps, input.ip)
  return { user: await createUser(deps, provider, profile, input.aff), created: true }
}

/** A provider e-mail that an existing user has: never a way into that account, and not a second account either. */
async function refuseEmailMatch(deps: SignInDeps, provider: string, profile: ProviderProfile): Promise<void> {
  const email = profile.email
  if (!email || (await deps.repos.bindings.emailOwner(email)) === undefined) return
  if (!profile.emailVerified) {
    throw oauthError(409, 'oauth_email_unverified', `${provider} does not vouch for ${email}, which a user here has: sign in as that user and bind ${provider} from the profile`)
  }
  throw oauthError(409, 'oauth_email_in_use', `a user here has the e-mail ${email}: sign in as that user and bind ${provider} from the profile`)
}

/** The new user and its binding; a binding that lost a race takes the new user back out. */
async function createUser(deps: SignInDeps, provider: string, profile: ProviderProfile, aff: string): Promise<UserRow> {
  const { users, bindings } = deps.repos
  const inviter = aff ? await users.findByAffCode(aff) : undefined
  const quota = deps.options.get<number>('QuotaForNewUser') + (inviter ? deps.options.get<number>('QuotaForInvitee') : 0)
  const reward = { reward: deps.options.get<number>('QuotaForInviter'), maxRewarded: deps.options.get<number>('QuotaForInviterMaxInvitees') }
  for (let attempt = 0; ; attempt++) {
    const username = await freeUsername(deps, provider, profile, attempt)
    const row = {
      username,
      // no password: this user signs in through the provider until they set one
      password: '',
      displayName: profile.displayName.slice(0, 20) || username,
      email: profile.emailVerified ? profile.email : '',
      role: Role.user,
      quota,
      inviterId: inviter?.id ?? 0,
    }
    let user: UserRow
    try {
      user = await users.insert(row, inviter && { id: inviter.id, ...reward })
    } catch (error) {
      if (isUniqueViolation(error) && attempt < 3) continue
      throw error
    }
    try {
      await bindings.bind(user.id, provider, profile.id)
      return user
    } catch (error) {
      await users.delete(user.id)
      if (isUniqueViolation(error)) throw oauthError(409, 'oauth_bound_elsewhere', `this ${provider} account was just bound to another user`)
      throw error
    }
  }
}

/** The provider's name when it is a valid, free username; else `<provider>_<id>`, else a random suffix. */
async function freeUsername(deps: SignInDeps, provider: string, profile: ProviderProfile, attempt: number): Promise<string> {
  // a custom provider's binding type (custom:3) is no username: custom_3_<id>
  const prefix = provider.replace(/[^A-Za-z0-9_]/g, '_')
  const candidates = [profile.username, `${prefix}_${profile.id}`, `${prefix}_${crypto.randomUUID().slice(0, 8)}`].slice(attempt)
  for (const name of candidates) {
    if (!isValidUsername(name)) continue
    const taken = (await deps.repos.users.findByUsername(name)) ?? (await deps.repos.users.findByUsernameKey(usernameSkeleton(name)))
    if (!taken) return name
  }
  return `${prefix}_${crypto.randomUUID().slice(0, 8)}`
}

/** Bind this identity to the signed-in user: refused when another user has it, or this user has another of this provider. */
export async function bindTo(deps: Pick<AppDeps, 'repos'>, user: UserRow, provider: string, externalId: string): Promise<void> {
  const owner = await deps.repos.bindings.findUserId(provider, externalId)
  if (owner === user.id) return
  if (owner !== undefined) throw oauthError(409, 'oauth_bound_elsewhere', `this ${provider} account is bound to another user`)
  if ((await deps.repos.bindings.listByUser(user.id)).some((b) => b.provider === provider)) {
    throw oauthError(409, 'oauth_provider_bound', `you have another ${provider} account bound: unbind it first`)
  }
  try {
    await deps.repos.bindings.bind(user.id, provider, externalId)
  } catch (error) {
    if (isUniqueViolation(error)) throw oauthError(409, 'oauth_bound_elsewhere', `this ${provider} account is bound to another user`)
    throw error
  }
}
