/** Sign-in providers: the login page's buttons and the callback page. */
export const oauth = {
  'oauth.buttons.label': 'Sign in with another account',
  'oauth.buttons.continueWith': 'Continue with {name}',
  'oauth.callback.title': 'Signing in',
  'oauth.callback.working': 'Checking the answer of the provider…',
  'oauth.callback.back': 'Back to the login page',
} as const
