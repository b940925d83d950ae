import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/**
 * ESLint checks what tsc and dependency-cruiser cannot (`npm run lint:eslint`):
 * - typescript-eslint's type-checked recommended set: unsafe `any` flows, needless type assertions,
 *   async functions that never await, unused variables, misused promises and the like;
 * - a promise nobody awaits or handles (its rejection is lost, or crashes the process later);
 * - small functions with one job: none above 80 lines (blank lines and comments not counted);
 * - in the pages, an Html value in a plain template literal (it would be escaped as text);
 * - Node built-ins in workflow code, which runs in Temporal's deterministic sandbox (as Temporal's
 *   own samples forbid them): time, randomness and I/O come from @temporalio/workflow or an activity.
 * - `client.workflow` outside src/temporal and src/main: a workflow is started and messaged through
 *   its typed client (src/temporal/<workflow>-client.ts), which owns its id, options and search
 *   attributes (dependency-cruiser sees imports, not member calls, so this rule is ESLint's);
 * - `process.env` outside the config module and the entry points, and a variable of it read
 *   anywhere but the config module (src/config.ts, src/config-tools.ts for the programs beside the
 *   gateway, the production stack's settings): the environment is parsed once and each component
 *   receives the typed values it needs; an entry point hands the environment on whole.
 */
const sandboxed = 'Workflow code runs in a deterministic sandbox: no Node built-ins (use @temporalio/workflow, or an activity).';
const linted = ['src/**/*.ts', 'workflows/**/*.ts', 'activities/**/*.ts'];
/** The modules that read the environment's variables: the gateway's configuration, the tools', the production stack's. */
const settingsModules = ['src/config.ts', 'src/config-tools.ts', 'src/devstack/production/settings.ts'];
const workflowCall = {
  selector: "MemberExpression[property.name='workflow'], MemberExpression[property.value='workflow']",
  message:
    'Start, signal, update and query a workflow through its typed client in src/temporal/<workflow>-client.ts, never client.workflow.',
};
// process.env.NAME and process.env[name]; handing process.env on whole (to loadConfig, to a child process) is no read.
const environmentRead = {
  selector: "MemberExpression[object.type='MemberExpression'][object.object.name='process'][object.property.name='env']",
  message: 'Read settings through the configuration module (src/config.ts, src/config-tools.ts), not process.env.NAME.',
};

export default tseslint.config(
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: linted })),
  {
    files: linted,
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      // A name starting with _ is left unused on purpose (a field dropped by a rest destructuring, a parameter an interface passes).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Off: an async method without await is how this code implements a Promise-returning interface (activities, connectors, codecs), so a throw rejects.
      '@typescript-eslint/require-await': 'off',
      // Off: gRPC status codes are compared as the protocol's numbers, named in a comment (grpc-js's Status enum is no dependency of ours).
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
    },
  },
  {
    // Pages are built with the escaping `html` template (src/api/pages/html.ts); in a plain template
    // literal an Html value would turn into a string and be escaped as text when inserted: only
    // strings and numbers go into a plain one.
    files: ['src/api/pages/**/*.ts'],
    rules: { '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }] },
  },
  {
    files: ['src/**/*.ts', 'activities/**/*.ts'],
    ignores: ['src/temporal/**', 'src/main/**', ...settingsModules],
    rules: { 'no-restricted-syntax': ['error', workflowCall, environmentRead] },
  },
  {
    // The typed clients and the composition call client.workflow; they read no variable either.
    files: ['src/temporal/**/*.ts', 'src/main/**/*.ts', 'workflows/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', environmentRead] },
  },
  {
    files: linted,
    ignores: [...settingsModules, 'src/main/**', 'src/devstack/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration from the Config src/config.ts parsed, not process.env.',
        },
      ],
    },
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
