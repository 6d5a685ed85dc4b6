// What every page must pass in the browser tests: axe-core (from npm, evaluated in the page through the
// DevTools protocol, which the page's Content-Security-Policy does not govern) with no serious or critical
// violation, and a screenshot at desktop and phone width kept as a test artifact (git-ignored).
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const require = createRequire(import.meta.url)
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
export const ARTIFACTS = new URL('./artifacts/', import.meta.url)

export const DESKTOP = { width: 1280, height: 900 }
export const PHONE = { width: 390, height: 844 }

export interface Violation {
  id: string
  impact: string | null
  help: string
  targets: string[]
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  const present = await page.evaluate(() => 'axe' in globalThis)
  if (!present) await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as { document: unknown; axe: { run(context: unknown, options: { resultTypes: string[] }): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }
    // Only the violations are read: axe then keeps one node each of the passes, the incomplete and the
    // inapplicable instead of every one (its documented speed-up); the violations are found and listed whole.
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(' ')) }))
  })
}

/** Screenshots of the page at desktop and phone width (full page), named `<name>-desktop.png` / `-phone.png`. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true })
  for (const [label, size] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(size)
    await page.screenshot({ path: new URL(`${name}-${label}.png`, ARTIFACTS).pathname, fullPage: true })
  }
  await page.setViewportSize(DESKTOP)
}
