import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'

/**
 * The suites that run against PostgreSQL, in the `postgres` project. The sqlite project runs
 * everything under test/ except test/postgres/, so a suite listed here from elsewhere (the e2e
 * suites) runs on both backends.
 */
export const POSTGRES_SUITES = [
  'test/postgres/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  'test/reliability/two-processes.test.ts',
  'test/cli/sandbox-migrate.test.ts',
  'test/cli/sandbox-state.test.ts',
  'test/browser/dashboard.test.ts',
  'test/browser/dashboard-webhooks.test.ts',
]

/** End-to-end suites about what only SQLite has: its query plans and settings. */
export const SQLITE_ONLY_SUITES = ['test/e2e/query-plans.test.ts', 'test/e2e/database-settings.test.ts']

const postgresUrl = process.env.PAYBOX_TEST_POSTGRES_URL

// Both projects (inline projects do not inherit the root's test options): every e2e test starts
// its own sandbox on port 0 with its own database.
const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
} satisfies TestProjectInlineConfiguration['test']

const sqlite: TestProjectInlineConfiguration = {
  test: {
    ...shared,
    name: 'sqlite',
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/postgres/**'],
    env: { PAYBOX_TEST_BACKEND: 'sqlite' },
  },
}

const postgres: TestProjectInlineConfiguration = {
  test: {
    ...shared,
    name: 'postgres',
    include: POSTGRES_SUITES,
    exclude: [...configDefaults.exclude, ...SQLITE_ONLY_SUITES],
    env: { PAYBOX_TEST_BACKEND: 'postgres' },
  },
}

// This file is evaluated once per run, by the main vitest process (workers get the resolved
// config), so the line appears once, above the results. It would not with `extends: true` on a
// project: that loads this file again for the project.
if (!postgresUrl) {
  console.warn(
    'PostgreSQL suites skipped: PAYBOX_TEST_POSTGRES_URL is not set (run `eval "$(scripts/postgres-dev.sh start)"`, then npm test)',
  )
}

export default defineConfig({
  test: {
    projects: postgresUrl ? [sqlite, postgres] : [sqlite],
  },
})
