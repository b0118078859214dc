/** A transaction's claim is held by another transaction, of this replica or another one (PostgreSQL). */
export class ClaimTakenError extends Error {
  constructor(readonly claim: string) {
    super('Claimed by another transaction')
  }
}
