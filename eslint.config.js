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
            { target: './src', from: ['./sandbox', './commands', './test', './bench'], message: 'src/ is the shared library: it reaches the sandbox only over HTTP.' },
            { target: './sandbox', from: ['./commands', './test', './bench', './src/cli'], message: 'The sandbox does not depend on the CLI, tests or benchmarks.' },
          ],
        },
      ],
    },
  },
  {
    files: ['commands/**/*.ts'],
    ignores: ['commands/sandbox/start.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [{ target: './commands', from: './sandbox', message: 'Commands reach the sandbox through PayboxClient; only `sandbox start` runs it.' }] },
      ],
    },
  },
)
