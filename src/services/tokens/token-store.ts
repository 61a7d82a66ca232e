import type { Repos } from '../../db/repos'

/** What the token services read and write: the tokens' repository, nothing else of the app. */
export interface TokenStore {
  repos: Pick<Repos, 'tokens'>
}
