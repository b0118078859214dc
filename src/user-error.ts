// Something the user can fix (a bad flag value, a missing setting): the CLI prints it as one
// line with its hint and exits 1, never as a bug.
export class UserError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message)
    this.name = 'UserError'
  }
}
