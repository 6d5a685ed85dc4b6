/** What every route module of this service receives. */
export interface RouteOptions {
  feedPublishTimeoutMs: number
}

/** A pg error for "the referenced user row does not exist" (the gateway vouched for a deleted user). */
export function isMissingUser(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '23503'
}

