/**
 * What the caller reads when storage (or anything else unexpected) fails: no host, table or SQL in it.
 * The spec answers "database or processing error on settings routes" with 500 `{success:false, error}`,
 * so the service's one error handler is configured with it (the shared default would be a 503).
 */
export const STORAGE_FAILURE_MESSAGE = 'Settings could not be read or saved right now, please try again'

export const settingsErrorAnswers = {
  dependencyFailure: { statusCode: 500, message: STORAGE_FAILURE_MESSAGE },
  unexpectedFailureMessage: STORAGE_FAILURE_MESSAGE,
}
