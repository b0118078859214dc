// The sandbox in-process, for test runners (`import { startSandbox } from 'paybox/sandbox'`):
// startSandbox({ port: 0, db: ':memory:' }) resolves once it accepts connections, with its url,
// admin token and seeded merchants' keys; stop() closes it.
export { startSandbox, SandboxConfigError, DEFAULT_HOST, DEFAULT_PORT, type RunningSandbox, type SandboxOptions } from './server.js'
export type { SandboxIdentity } from './context.js'
export type { MerchantCredentials } from './merchants/merchant-service.js'
export type { RequestLog } from './request-log/request-log.js'
