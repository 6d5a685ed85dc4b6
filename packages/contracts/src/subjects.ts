/** Subjects and streams of the bus contract (DESIGN.md), before any test namespace prefix. */
export const Subjects = {
  alertEntry: 'alerts.entry',
  alertResult: 'alerts.result',
  alertTest: 'alerts.test',
  intakeLog: 'intake.log',
  feedStart: 'feeds.start',
  feedStop: 'feeds.stop',
  feedRestart: 'feeds.restart',
  notificationEvent: 'notify.events',
} as const
export type SubjectName = (typeof Subjects)[keyof typeof Subjects]

export const Streams = {
  alerts: { name: 'ALERTS', subjects: ['alerts.entry', 'alerts.result', 'alerts.test'] },
  feeds: { name: 'FEEDS', subjects: ['feeds.*'] },
  intake: { name: 'INTAKE', subjects: ['intake.log'] },
  notifications: { name: 'NOTIFICATIONS', subjects: ['notify.events'] },
  deadLetters: { name: 'DEAD_LETTERS', subjects: ['dlq.>'] },
} as const

/** Key-value buckets (JetStream KV), before any test namespace prefix. */
export const Buckets = {
  feedStatus: 'FEED_STATUS',
  /** Shard leases and instance presence of the broker connectors (docs/decisions/feed-ownership.md). */
  feedOwners: 'FEED_OWNERS',
  /** Live signal sources by token hash (signal-source.ts), written by settings, read by ingest. */
  signalSources: 'SIGNAL_SOURCES',
} as const

/** Core request-reply subjects addressed to one connector instance (not in a stream). */
export const connectorSubjects = (instanceId: string) => ({
  entries: `connector.${instanceId}.entries`,
  feeds: `connector.${instanceId}.feeds`,
  flattens: `connector.${instanceId}.flattens`,
  kills: `connector.${instanceId}.kills`,
  brokerView: `connector.${instanceId}.broker-view`,
})

/**
 * A user id as one name token: KV keys allow only [-/_=.a-zA-Z0-9] and a subject token no dots, so user
 * ids are base64url-encoded into both.
 */
export const userIdToken = (userId: string): string => Buffer.from(userId, 'utf8').toString('base64url')

/** The user's key in the FEED_STATUS bucket. */
export const feedStatusKey = (userId: string): string => userIdToken(userId)
