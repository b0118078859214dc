// Every command of the CLI, by id (oclif's explicit strategy: no directory scan at start-up).
// Command modules load heavy dependencies lazily inside run(), so importing them all is cheap.
import ConfigGet from './config/get.js'
import ConfigList from './config/list.js'
import ConfigSet from './config/set.js'
import Currencies from './currencies.js'
import Login from './login.js'
import PaymentsCreate from './payments/create.js'
import PaymentsGet from './payments/get.js'
import PaymentsList from './payments/list.js'
import SandboxClockAdvance from './sandbox/clock/advance.js'
import SandboxClockShow from './sandbox/clock/index.js'
import SandboxStart from './sandbox/start.js'
import SandboxStatus from './sandbox/status.js'

export const COMMANDS = {
  'config:get': ConfigGet,
  'config:list': ConfigList,
  'config:set': ConfigSet,
  currencies: Currencies,
  login: Login,
  'payments:create': PaymentsCreate,
  'payments:get': PaymentsGet,
  'payments:list': PaymentsList,
  'sandbox:clock': SandboxClockShow,
  'sandbox:clock:advance': SandboxClockAdvance,
  'sandbox:start': SandboxStart,
  'sandbox:status': SandboxStatus,
}
