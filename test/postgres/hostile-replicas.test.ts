// Hostile input across replicas (issue 17): the seeded malformed requests of the hostile suite,
// every other one sent to a second sandbox on the same PostgreSQL database, are each answered with
// their clean 4xx JSON error by whichever replica gets them, and change nothing of the shared state.
import { describe, expect, it } from 'vitest'
import { runHostile } from '../../harness/hostile-run.js'

describe('hostile input on two replicas', () => {
  it('answers every malformed request on either replica with its 4xx and changes nothing', async () => {
    const report = await runHostile({ replicas: 2 })
    expect(report.failures).toEqual([])
    expect(report.sent).toBe(report.cases)
    expect(report.stateChanges).toEqual([])
    expect(report.uncoveredRoutes).toEqual([])
    expect(report.healthyAfter).toBe(true)
  }, 120_000)
})
