// One lint configuration for the whole tree; the import rules keep the layers pointing one way:
// commands → src → (HTTP) → sandbox routes → services → repositories → db; inside the sandbox,
// the assembly (app/) → the domains → the kit (http/).
import { readdirSync } from 'node:fs'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import tseslint from 'typescript-eslint'

// The sandbox's domains: its folders that serve routes (*-routes.ts). They sit above the kit
// (sandbox/http/: auth, errors, body, declared routes) and below the assembly (sandbox/app/).
const sandboxDir = new URL('./sandbox/', import.meta.url)
const DOMAINS = readdirSync(sandboxDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['app', 'http'].includes(entry.name))
  .filter((entry) => readdirSync(new URL(`${entry.name}/`, sandboxDir)).some((file) => file.endsWith('-routes.ts')))
  .map((entry) => entry.name)

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  {
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: {
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src',
              from: ['./sandbox', './commands', './test', './harness', './bench'],
              message: 'src/ is the shared library: it reaches the sandbox only over HTTP.',
            },
            {
              target: './sandbox',
              from: ['./commands', './test', './harness', './bench', './src/cli'],
              message: 'The sandbox does not depend on the CLI, tests or benchmarks.',
            },
            { target: './src/config', from: './src/cli', message: 'Configuration is read by the CLI, not the other way round.' },
            {
              target: ['./sandbox/db/**', './sandbox/**/*-{service,repository,resource,lifecycle,changes,receipts}.ts'],
              from: './sandbox/http',
              message:
                'Services, repositories and the database know nothing of HTTP: throw an ApiError (sandbox/errors.ts) and let the edge answer.',
            },
            {
              target: './sandbox/http',
              from: ['./sandbox/app', ...DOMAINS.map((domain) => `./sandbox/${domain}`)],
              message: 'The kit (sandbox/http/) sits below every domain and the assembly: what it needs of them is handed in.',
            },
            {
              target: DOMAINS.map((domain) => `./sandbox/${domain}`),
              from: './sandbox/app',
              message: 'The assembly (sandbox/app/) sits above the domains: only it knows which routes exist.',
            },
            ...DOMAINS.map((domain) => ({
              target: `./sandbox/${domain}`,
              from: DOMAINS.filter((other) => other !== domain).map((other) => `./sandbox/${other}/**/*-routes.ts`),
              message: "A domain does not import another domain's routes: share what both need from a service, or a file beside it.",
            })),
            { target: './bench', from: './test', message: 'Benchmarks share code with tests through harness/, not through test/.' },
            { target: './harness', from: './test', message: 'The harness serves the tests; it does not import them.' },
          ],
        },
      ],
    },
  },
  {
    // A function a reader can hold in mind: split one that grows past this where a reader would
    // look for one job. Test files are left out: a describe block is long by nature.
    ignores: ['test/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['commands/**/*.ts'],
    // These two run the sandbox's own code: the server, and its migrations.
    ignores: ['commands/sandbox/start.ts', 'commands/sandbox/migrate.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './commands',
              from: './sandbox',
              message: 'Commands reach the sandbox through PayboxClient; only `sandbox start` and `sandbox migrate` run its code.',
            },
          ],
        },
      ],
    },
  },
)
