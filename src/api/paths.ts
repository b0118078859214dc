// Where the sandbox serves what is not a JSON endpoint of endpoints.ts, declared once: the
// sandbox mounts them here and the CLI's banner points at them.

/** The Horizon-compatible API of the simulated Stellar network, for Stellar SDKs and tools. */
export const HORIZON_PATH = '/horizon'

/** The browser dashboard (docs/dashboard.md). */
export const DASHBOARD_PATH = '/dashboard'
