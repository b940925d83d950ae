import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/**
 * ESLint runs only the rules tsc and dependency-cruiser cannot check (`npm run lint:eslint`):
 * - a promise nobody awaits or handles (its rejection is lost, or crashes the process later);
 * - in the pages, an Html value in a plain template literal (it would be escaped as text);
 * - Node built-ins in workflow code, which runs in Temporal's deterministic sandbox (as Temporal's
 *   own samples forbid them): time, randomness and I/O come from @temporalio/workflow or an activity.
 */
const sandboxed = 'Workflow code runs in a deterministic sandbox: no Node built-ins (use @temporalio/workflow, or an activity).';

export default tseslint.config(
  {
    files: ['src/**/*.ts', 'workflows/**/*.ts', 'activities/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // Pages are built with the escaping `html` template (src/api/pages/html.ts); in a plain template
    // literal an Html value would turn into a string and be escaped as text when inserted: only
    // strings and numbers go into a plain one.
    files: ['src/api/pages/**/*.ts'],
    rules: { '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }] },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // Bare names (fs, crypto, ...); every `node:` name by the pattern.
          paths: builtinModules.filter((m) => !m.startsWith('_')).map((name) => ({ name, message: sandboxed })),
          patterns: [{ group: ['node:*'], message: sandboxed }],
        },
      ],
    },
  },
);
