import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every e2e test starts its own sandbox on port 0 with its own database.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
