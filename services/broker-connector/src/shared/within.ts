/**
 * Waits for `work` at most `ms`: true when it settled (fulfilled or rejected) in time, false when the wait
 * ran out (the work goes on unawaited; its rejection is ignored). For closes that must not hang on a
 * server that does not answer.
 */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([work.then(() => true, () => true), late])
  } finally {
    clearTimeout(timer)
  }
}
