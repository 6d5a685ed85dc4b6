import { serviceUnavailable } from '@signals/http-kit'

/** Any Redis failure on the request path means "a dependency is down, try again" (503), never a 500. */
export async function orUnavailable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    throw Object.assign(serviceUnavailable(), { cause: error })
  }
}
