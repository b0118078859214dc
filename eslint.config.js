// One lint configuration for the whole tree; the import rules keep the layers pointing one way:
// commands → src → (HTTP) → sandbox routes → services → repositories → db.
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import tseslint from 'typescript-eslint'

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
