/**
 * Why a sign-in ended on the login page, as `/login.html?error=<code>`. Only codes travel in the URL: the
 * page shows its own text for each, so nobody can make our login page display words of their choosing.
 */
export const LOGIN_ERRORS = {
  denied: 'Sign-in was cancelled at the provider.',
  provider: 'The sign-in provider returned an error. Please try again.',
  unavailable: 'The sign-in provider cannot be reached right now. Please try again in a moment.',
  expired: 'The sign-in took too long or was started in another browser. Please try again.',
  unverified: 'Your e-mail address is not verified with the provider, so it cannot be used to sign in.',
  profile: 'The provider did not share a usable e-mail address.',
} as const

export type LoginErrorCode = keyof typeof LOGIN_ERRORS

export const loginErrorUrl = (code: LoginErrorCode) => `/login.html?error=${code}`
