// Waiting on a condition instead of sleeping: polls until `check` returns a value (not
// undefined or false), or fails with `what` after `timeoutMs`.
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const result = await check()
    if (result !== undefined && result !== false) return result
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
