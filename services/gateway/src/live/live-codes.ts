/** WebSocket close codes the page acts on (4000-4999 is the application range). */
export const CloseCode = {
  /** The session ended (signed out, expired, revoked sessions): the page goes to sign-in. */
  signedOut: 4401,
  /** The user was banned: the page goes to sign-in with the ban's reason. */
  banned: 4403,
  /** Approval withdrawn: the page goes to the pending page. */
  pending: 4409,
  /** The gateway is shutting down: the page reconnects. */
  goingAway: 1001,
} as const
