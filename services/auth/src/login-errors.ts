/**
 * Why a sign-in ended on the login page, as `/login.html?error=<code>`. Only codes travel in the URL: the
 * page shows its own text for each, so nobody can make our login page display words of their choosing.
 * denied: cancelled at the provider; provider: the provider returned an error; unavailable: the provider
 * cannot be reached; expired: took too long or started in another browser; unverified: the e-mail is not
 * verified with the provider; profile: no usable e-mail address shared.
 */
export type LoginErrorCode = 'denied' | 'provider' | 'unavailable' | 'expired' | 'unverified' | 'profile'

export const loginErrorUrl = (code: LoginErrorCode) => `/login.html?error=${code}`
