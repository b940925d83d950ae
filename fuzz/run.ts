/**
 * `npm run fuzz`: schemathesis against /openapi.json of a gateway this script starts (the test
 * stack), twice: requests signed for every auth scheme (fuzz/hooks.py), then unsigned. Fails on a
 * 5xx, a response outside the document, a schema-valid request refused for a reason the document
 * does not state, or a schema-invalid request accepted. Then the legacy forms' attacker property.
 *
 *   npm run fuzz [-- --max-examples 30]
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { venvDir } from '../src/devstack/paths';
import { startTestGateway } from '../test/support/gateway';
import { stopTestServers } from '../test/support/servers';
import { startTimeSkippingGateway } from '../test/support/time-skipping';

const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'positive_data_acceptance',
  'negative_data_rejection',
];

function schemathesis(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(venvDir, 'bin', 'schemathesis'), args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'max-examples': { type: 'string', default: '25' } } });
  // No rate limits: the fuzzer is one merchant sending as fast as it can.
  const gw = await startTestGateway({ RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' });
  try {
    const merchant = await gw.newMerchant('Fuzz');
    // Checkout requests may leave returnUrl out when the merchant has a default: most then open a checkout.
    await gw.rt.merchants.updateSettings(merchant.merchantIdentifier, { defaultReturnUrl: 'https://merchant.example/return' });
    const env = {
      SCHEMATHESIS_HOOKS: 'hooks',
      PYTHONPATH: path.join(__dirname),
      FUZZ_MERCHANT_ID: merchant.merchantIdentifier,
      FUZZ_SECRET_KEY: merchant.secretKey,
      FUZZ_API_KEY: merchant.apiKey,
      FUZZ_OPS_TOKEN: gw.rt.config.OPS_TOKEN,
    };
    const args = (url: string, only: string[] = []) => [
      '--config-file',
      path.join(__dirname, 'schemathesis.toml'),
      'run',
      `${url}/openapi.json`,
      ...only,
      '--checks',
      CHECKS.join(','),
      '--max-examples',
      values['max-examples']!,
      '--seed',
      '1',
      '--no-color',
    ];
    let failed = 0;
    for (const sign of ['1', '0']) {
      console.log(`\n== fuzz: requests ${sign === '1' ? 'signed for every auth scheme' : 'unsigned'}`);
      if ((await schemathesis(args(gw.baseUrl), { ...env, FUZZ_SIGN: sign })) !== 0) failed++;
    }
    if ((await fuzzTimeSkipping(args, env)) !== 0) failed++;
    if ((await legacyFormAttacker()) !== 0) failed++;
    return failed === 0 ? 0 : 1;
  } finally {
    await gw.stop();
    await stopTestServers();
  }
}

/** The legacy forms' attacker property (test/api/legacy-form-property.test.ts), with more runs than npm test gives it. */
function legacyFormAttacker(): Promise<number> {
  console.log('\n== fuzz: a payer re-arranging signed legacy forms (fast-check, FC_RUNS=1000)');
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['mocha', 'test/api/legacy-form-property.test.ts'], {
      stdio: 'inherit',
      env: { ...process.env, FC_RUNS: process.env.FC_RUNS ?? '1000' },
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** The time endpoints exist only in time-skipping mode: a gateway of that mode, its own test server. */
async function fuzzTimeSkipping(args: (url: string, only: string[]) => string[], env: NodeJS.ProcessEnv): Promise<number> {
  console.log('\n== fuzz: the time-skipping endpoints, on a gateway in that mode');
  const gw = await startTimeSkippingGateway({ RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' });
  try {
    return await schemathesis(args(gw.baseUrl, ['--include-path-regex', '^/sandbox/v1/time']), { ...env, FUZZ_SIGN: '0' });
  } finally {
    await gw.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(e);
    process.exit(1);
  },
);
