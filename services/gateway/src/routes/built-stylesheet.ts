import { readdir } from 'node:fs/promises'

/**
 * The stylesheet's file name as built (`styles-<hash>.css`, scripts/build-web.ts), for the pages the gateway
 * writes itself (the rate-limited page): a fixed `/styles.css` does not exist once built, and the page would
 * load unstyled. Falls back to `styles.css` for an unbuilt folder.
 */
export async function builtStylesheet(root: string): Promise<string> {
  const names = await readdir(root).catch(() => [] as string[])
  return names.find((name) => /^styles-[A-Z0-9]+\.css$/.test(name)) ?? 'styles.css'
}
