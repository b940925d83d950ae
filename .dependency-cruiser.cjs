/**
 * The layer rules of the code (`npm run lint` runs them: `depcruise src workflows activities`).
 * Known exceptions are listed by name below each rule, so the rule holds for every new import.
 */

/** The HTTP API's audience modules (src/api/<audience>/: routes, their OpenAPI, the module's index.ts). */
const AUDIENCE = '^src/api/(merchant|payer|dashboard|ops|sandbox|platform)/';

/**
 * What an audience module may import besides its own folder, domain and packages: the
 * HTTP toolkit every audience shares (middleware, schemas, pages, the OpenAPI builder, the envelopes).
 */
const httpToolkit = [
  '^src/api/(middleware|schemas|pages|reference)/',
  '^src/api/(deps|envelope|audience|operation|operation-auth|operation-browser|browser-page|hosted-page|checkout-request|mandate-response|page-stream|page-walk|csv-stream)\\.ts$',
];

/**
 * Audience files that reach past their use cases (to the bank protocol, the QR render pool, pure
 * Temporal helpers or the config), each with what it may import. The store, the use cases' code and
 * the clients have their own reachability rule below.
 */
const audienceFilesReachingFurther = {
  'src/api/platform/bank.ts': ['src/bank/signing.ts', 'src/bank/protocol.ts', 'src/bank/openapi.ts'],
  'src/api/platform/index.ts': ['src/bank/protocol.ts', 'src/bank/openapi.ts'],
  'src/api/ops/codec.ts': ['src/temporal/payload-codec.ts'],
  // type-only: the bank's redirect and callback, which the payer's and the platform's use cases name
  'src/api/payer/use-cases.ts': ['src/bank/connector.ts'],
  'src/api/platform/use-cases.ts': ['src/bank/protocol.ts'],
  // type-only: Config
  'src/api/dashboard/dashboard-transactions.ts': ['src/temporal/workflow-ids.ts', 'src/config.ts'],
  'src/api/merchant/qr-image.ts': ['src/qr-render-pool.ts'],
  'src/api/payer/checkout-page.ts': ['src/qr-render-pool.ts'],
  'src/api/payer/payment-link-page.ts': ['src/qr-render-pool.ts'],
};

const exactly = (file) => `^${file.replace(/[.]/g, '\\.')}$`;

/** What workflow code may import at run time: itself, pure code, and the workflows' contracts. */
const workflowSafe = [
  '^workflows/',
  '^src/domain/',
  '^src/temporal/[^/]+-(messages|contract)\\.ts$',
  '^src/temporal/search-attributes\\.ts$',
  '^src/temporal/workflow-ids\\.ts$',
  '^node_modules/@temporalio/(workflow|common)/',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included: a cycle means a type or helper lacks a neutral home.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'only-entry-points-import-the-composition',
      comment:
        'src/main composes the processes (entry points, runtime, worker): it imports everything, nothing imports it, so no arrow runs up.',
      severity: 'error',
      from: { path: '^(src|workflows|activities)/', pathNot: '^src/main/' },
      to: { path: '^src/main/' },
    },
    {
      name: 'domain-imports-nothing-of-ours',
      comment: 'src/domain is pure: it may use npm packages and Node built-ins, nothing of ours outside src/domain.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/', '^node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'workflows-import-only-workflow-safe-code',
      comment:
        'Workflow code is bundled into a deterministic sandbox: no I/O, no Node built-ins, no store, no client. ' +
        'Activities are reached through proxyActivities, so only their types may be imported.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { pathNot: [...workflowSafe, '^activities/', '^src/bank/connector\\.ts$'] },
    },
    {
      name: 'workflows-import-only-types-of-activities',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { path: '^activities/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'workflows-import-only-types-of-the-bank',
      comment:
        'The bank connector interface (src/bank/connector.ts) names what workflows pass to bank activities: its types only.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { path: '^src/bank/connector\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'src-never-imports-activities-or-workflows',
      comment:
        'The Temporal boundary: src/ reaches workflows through their contracts (src/temporal/*-contract.ts, ' +
        '*-messages.ts) and the bank through src/bank/. Only the worker registers the workflows and activities, ' +
        "and the composition root (src/main/runtime.ts) types the activities' dependencies it builds.",
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: [
          exactly('src/main/gateway-worker.ts'),
          exactly('src/main/runtime.ts'),
          exactly('src/main/settlement-runtime.ts'),
        ],
      },
      to: { path: '^(activities|workflows)/' },
    },
    {
      name: 'src-never-imports-activities-or-workflows',
      comment: "The composition root (and its settlement part) may import the activities' types only.",
      severity: 'error',
      from: { path: ['src/main/runtime.ts', 'src/main/settlement-runtime.ts'].map(exactly) },
      to: { path: '^(activities|workflows)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'audience-modules-import-their-own-folder-use-cases-domain-schemas',
      comment:
        'A route file (or OpenAPI module) of one audience imports its own folder (its use-case interface included), the HTTP toolkit and ' +
        'domain: never another audience (share through a use case or the toolkit), nor Temporal, the bank or the store.',
      severity: 'error',
      from: { path: AUDIENCE, pathNot: Object.keys(audienceFilesReachingFurther).map(exactly) },
      to: {
        pathNot: ['^src/api/$1/', ...httpToolkit, '^src/domain/', '^node_modules/'],
        dependencyTypesNot: ['core'],
      },
    },
    ...Object.entries(audienceFilesReachingFurther).map(([file, allowed]) => ({
      name: 'audience-modules-import-their-own-folder-use-cases-domain-schemas',
      comment: `Known exception: ${file} may also import ${allowed.join(', ')}.`,
      severity: 'error',
      from: { path: exactly(file) },
      to: {
        pathNot: [`^src/api/${file.split('/')[2]}/`, ...httpToolkit, '^src/domain/', '^node_modules/', ...allowed.map(exactly)],
        dependencyTypesNot: ['core'],
      },
    })),
    {
      name: 'middleware-never-imports-the-audiences',
      comment:
        "The HTTP middleware serves every audience and knows none: what it needs of them (a refusal's envelope at a path) " +
        'the matched operation records, or the composition (src/api/app.ts) passes in.',
      severity: 'error',
      from: { path: '^src/api/middleware/' },
      to: { path: [exactly('src/api/audiences.ts'), AUDIENCE] },
    },
    {
      name: 'use-cases-never-import-the-mongodb-driver',
      comment:
        'A use case gets the repositories (or narrower functions) it needs, built once in the composition root ' +
        '(src/main/use-cases, src/main/runtime.ts): none takes the raw Db or imports the driver, type-only imports included.',
      severity: 'error',
      from: { path: '^src/usecases/' },
      to: { path: '^node_modules/mongodb/' },
    },
    {
      name: 'the-api-never-reaches-the-store-or-the-temporal-client',
      comment:
        'A route parses, authenticates, asks a use case (ApiDeps.useCases, bound in src/main/use-cases) and maps the ' +
        'result. Nothing in src/api reaches the store, the use cases that hold repositories, the mongodb driver or ' +
        'the Temporal client by any path, type-only imports included: the use-case interfaces name domain types.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: {
        path: ['^src/store/', '^src/usecases/', '^node_modules/mongodb/', '^node_modules/@temporalio/client/'],
        reachable: true,
      },
    },
  ],
  options: {
    doNotFollow: { path: '^node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
