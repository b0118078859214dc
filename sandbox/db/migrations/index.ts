// Static migration list, so the built package needs no file globbing. Append new migrations.
import type { Migration, MigrationProvider } from 'kysely'
import * as initial from './2026-11-21T13-00-initial.js'

const migrations: Record<string, Migration> = {
  '2026-11-21T13-00-initial': initial,
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
