// Opening a link in the user's browser, when there is one to open it in: `open` on macOS,
// `start` on Windows, `xdg-open` elsewhere; never under CI, and not on a Linux machine with no
// display (no DISPLAY or WAYLAND_DISPLAY), where xdg-open would fall back to a text browser.
import { spawn } from 'node:child_process'

/** Why the link is printed rather than opened, or undefined when a browser can be asked. */
export function whyNotOpen(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env.CI) return 'CI is set'
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)'
  return undefined
}

/** Asks the system to open `url`; resolves false when its opener could not be started. */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const [command, args] =
    platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]]
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true })
    child.once('error', () => resolve(false))
    child.once('spawn', () => {
      child.unref()
      resolve(true)
    })
  })
}
