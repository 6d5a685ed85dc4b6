/** A failure before any broker call (credentials unreadable); its message is safe to show and store. */
export class FeedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeedError'
  }
}
