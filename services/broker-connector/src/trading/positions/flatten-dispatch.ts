/**
 * Where a result alert's flattens go: to the instance holding each user's broker session (this one, or
 * another through the flatten handoff). Best effort by design: the requests are durable, so one that cannot
 * be handed over now is carried out when the user's session opens next or at its holder's next sweep.
 */
export interface FlattenDispatch {
  dispatch(userIds: readonly string[]): Promise<void>
}
