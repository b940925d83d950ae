/**
 * `npm run fuzz`: schemathesis against /openapi.json of a gateway this script starts (the test
 * stack), twice: requests signed for every auth scheme (fuzz/hooks.py), then unsigned; then the
 * time-skipping endpoints on a gateway of that mode. Fails on a 5xx, a response outside the
 * document, a schema-valid request refused for a reason the document does not state, a
 * schema-invalid request accepted, or (signed) an operation whose valid requests never got past
 * authentication. Then the legacy forms' attacker property.
 *
 * With FUZZ_SUMMARY_FILE set, writes there one line saying what was checked (`.ci/run` prints it).
 *
 *   npm run fuzz [-- --max-examples 30]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  // fuzz/hooks.py: in the signed pass, each signed operation's valid requests get past authentication.
  'signed_requests_authenticate',
];

/** What one schemathesis run reported: its exit code, the operations it selected, the cases it generated. */
interface Pass {
  code: number;
  operations: number | null;
  cases: number | null;
}

function schemathesis(args: string[], env: NodeJS.ProcessEnv): Promise<Pass> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(venvDir, 'bin', 'schemathesis'), args, {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const number = (re: RegExp) => (re.exec(out) ? Number(re.exec(out)![1]) : null);
      resolve({ code: code ?? 1, operations: number(/Operations:\s+(\d+) selected/), cases: number(/(\d+) generated/) });
    });
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'max-examples': { type: 'string', default: '25' } } });
  // No rate limits (nor the Settlement API's 2 calls an hour): the fuzzer is one merchant sending as
  // fast as it can, and a schema-valid request it sends is answered as the document says, never 429.
  const gw = await startTestGateway({ RATE_LIMIT_PER_SECOND: '0', SETTLEMENT_REPORT_CALLS_PER_HOUR: '0', LOG_LEVEL: 'silent' });
  const authReport = path.resolve(__dirname, '..', 'test-output', 'fuzz-signed-authentication.json');
  mkdirSync(path.dirname(authReport), { recursive: true });
  rmSync(authReport, { force: true });
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
      FUZZ_OPS_TOKEN: gw.rt.config.secrets.opsToken,
      FUZZ_AUTH_REPORT: authReport,
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
    const passes: Record<'signed' | 'unsigned' | 'time', Pass> = {} as never;
    for (const sign of ['1', '0'] as const) {
      console.log(`\n== fuzz: requests ${sign === '1' ? 'signed for every auth scheme' : 'unsigned'}`);
      passes[sign === '1' ? 'signed' : 'unsigned'] = await schemathesis(args(gw.baseUrl), {
        ...env,
        FUZZ_SIGN: sign,
        FUZZ_BASE_URL: gw.baseUrl,
      });
    }
    passes.time = await fuzzTimeSkipping(args, env);
    const attacker = await legacyFormAttacker();
    const failed = Object.values(passes).filter((p) => p.code !== 0).length + (attacker.code !== 0 ? 1 : 0);
    if (process.env.FUZZ_SUMMARY_FILE)
      writeFileSync(process.env.FUZZ_SUMMARY_FILE, `${summary(passes, authReport, attacker.runs)}\n`);
    return failed === 0 ? 0 : 1;
  } finally {
    await gw.stop();
    await stopTestServers();
  }
}

/** One line: what each pass sent, what every response was checked for, and what the signed pass proved. */
function summary(passes: Record<'signed' | 'unsigned' | 'time', Pass>, authReport: string, attackerRuns: string): string {
  const n = (v: number | null) => (v === null ? '?' : v.toLocaleString('en-US'));
  let signedOps = '';
  try {
    const counts = JSON.parse(readFileSync(authReport, 'utf8')) as Record<string, [number, number]>;
    const through = Object.values(counts).reduce((s, [t]) => s + t, 0);
    const sent = Object.values(counts).reduce((s, [, c]) => s + c, 0);
    const none = Object.values(counts).filter(([t]) => t === 0).length;
    const qr = counts['GET /api/payments/v1/upi/qr/image'];
    signedOps =
      `; ${n(through)} of the ${n(sent)} valid signed requests of its ${Object.keys(counts).length} authenticated operations got past authentication, ` +
      (none === 0 ? 'every operation some' : `${none} operation(s) none`) +
      (qr ? ` (the QR image ${n(qr[0])} of ${n(qr[1])})` : '');
  } catch {
    signedOps = '; no record of the signed requests (fuzz/hooks.py wrote none)';
  }
  return (
    `fuzz: the ${n(passes.signed.operations)} operations of /openapi.json, signed for their auth scheme (${n(passes.signed.cases)} cases${signedOps}) ` +
    `and unsigned (${n(passes.unsigned.cases)} cases), and the ${n(passes.time.operations)} time-skipping ones unsigned (${n(passes.time.cases)} cases); ` +
    `checks: ${CHECKS.join(', ')}; a schema-invalid request may get 200 only where the document says coded refusals are HTTP 200 (the checkout entries, Zaakpay's own APIs) ` +
    `or, for a payment link batch, the invalid entry's errorDescription; then the legacy forms' attacker property (fast-check, ${attackerRuns} runs per endpoint)`
  );
}

/** The legacy forms' attacker property (test/api/legacy-form-property.test.ts), with more runs than npm test gives it. */
function legacyFormAttacker(): Promise<{ code: number; runs: string }> {
  console.log('\n== fuzz: a payer re-arranging signed legacy forms (fast-check, FC_RUNS=1000)');
  const runs = process.env.FC_RUNS ?? '1000';
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['mocha', 'test/api/legacy-form-property.test.ts'], {
      stdio: 'inherit',
      env: { ...process.env, FC_RUNS: runs },
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, runs }));
  });
}

/** The time endpoints exist only in time-skipping mode: a gateway of that mode, its own test server. */
async function fuzzTimeSkipping(args: (url: string, only: string[]) => string[], env: NodeJS.ProcessEnv): Promise<Pass> {
  console.log('\n== fuzz: the time-skipping endpoints, on a gateway in that mode');
  const gw = await startTimeSkippingGateway({ RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' });
  try {
    return await schemathesis(args(gw.baseUrl, ['--include-path-regex', '^/sandbox/v1/time']), {
      ...env,
      FUZZ_SIGN: '0',
      FUZZ_BASE_URL: gw.baseUrl,
    });
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
