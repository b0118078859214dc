// Options `startSandbox` refuses because the user can fix them (a bad --db, an unusable --host):
// one line the CLI prints as is, with exit 1, instead of reporting a bug.
export class SandboxConfigError extends Error {
  readonly code = 'ESANDBOXCONFIG'
}
