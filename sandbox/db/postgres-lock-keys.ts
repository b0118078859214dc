// The advisory lock keys of a shared sandbox, apart from the PostgreSQL backend so that code
// running on both backends can name them without loading the driver at an SQLite start.

/** Advisory lock keys (pg_advisory_*), in paybox's own space: 0x7061_79xx ("pay"). One-key form; idempotency claims use the two-key form. */
export const LOCK_KEYS = {
  write: 0x7061_7901,
  migrate: 0x7061_7902,
  leader: 0x7061_7903,
  // Held shared by every replica while it serves, exclusive by one replacing the state (postgres-serving-lock.ts).
  serving: 0x7061_7905,
  // Orders the passes that give payment events their positions (postgres-event-positions.ts).
  eventPositions: 0x7061_7946,
  // Webhook claims: the first key of each cap share's two-key lock, tried, never awaited (delivery-claim-repository.ts).
  deliveryClaims: 0x7061_7947,
} as const
