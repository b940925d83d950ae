import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeBlocks, guideFiles, PROJECT_ROOT, type DocBlock } from '../support/doc-blocks';
import { startTestGateway, sharedGateway, type TestGateway } from '../support/gateway';
import { startTimeSkippingGateway } from '../support/time-skipping';

/**
 * The guides cannot drift from the code: every ```sh test block of README.md and docs/ runs here,
 * in its file's order, in one bash per file, against a real gateway (store, Temporal, worker) and a
 * merchant of its own, with the variables `npm start` prints for its demo merchant (B, M, S, K, E,
 * T, P). A block must exit 0; a ```json expect or ```text expect block after it is compared with
 * what it printed; and no request of a guide may get a 5xx.
 */
const FILE_TIMEOUT_MS = 240_000;
const END = '@@docs-block-end@@';

type Mode = 'sandbox' | 'time-skipping' | 'simulator';

interface RunnableBlock extends DocBlock {
  expect?: DocBlock;
}

function runnableBlocks(file: string): RunnableBlock[] {
  const blocks = codeBlocks(file);
  const out: RunnableBlock[] = [];
  blocks.forEach((b, i) => {
    if (b.lang !== 'sh' || !b.tags.includes('test') || b.tags.includes('setup')) return;
    const next = blocks[i + 1];
    out.push({ ...b, ...(next && next.tags.includes('expect') ? { expect: next } : {}) });
  });
  return out;
}

const setupBlocks = () =>
  guideFiles()
    .flatMap(codeBlocks)
    .filter((b) => b.lang === 'sh' && b.tags.includes('test') && b.tags.includes('setup'));

function modeOf(blocks: DocBlock[]): Mode {
  if (blocks.some((b) => b.tags.includes('time-skipping'))) return 'time-skipping';
  if (blocks.some((b) => b.tags.includes('simulator'))) return 'simulator';
  return 'sandbox';
}

/** Runs a script in its own process group (a guide may leave a receiver running in the background). */
function bash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: PROJECT_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`timed out after ${FILE_TIMEOUT_MS} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, FILE_TIMEOUT_MS);
    child.on('error', reject);
    // A receiver a guide left running holds the pipes open: once bash is done, its group goes too.
    child.on('exit', killGroup);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `expected` is contained in `actual`: objects by their keys, arrays element by element, "…" any value. */
function contains(actual: unknown, expected: unknown): boolean {
  if (expected === '…') return actual !== undefined;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => contains(actual[i], e));
  }
  if (expected && typeof expected === 'object') {
    return (
      !!actual &&
      typeof actual === 'object' &&
      Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v))
    );
  }
  return actual === expected;
}

function lastJsonLine(output: string): unknown {
  for (const line of output.trim().split('\n').reverse()) {
    try {
      return JSON.parse(line);
    } catch {
      /* not JSON: the line before */
    }
  }
  return undefined;
}

/** Requests answered with a 5xx so far, from the gateway's own counter. */
async function serverErrors(gw: TestGateway): Promise<number> {
  const text = await (
    await fetch(`${gw.baseUrl}/metrics`, { headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` } })
  ).text();
  return [...text.matchAll(/^http_requests_total\{[^}]*status="5\d\d"[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

describe('The guides: every command in README.md and docs/ runs against a gateway', function () {
  this.timeout(FILE_TIMEOUT_MS + 120_000);
  const files = guideFiles().filter((f) => runnableBlocks(f).length > 0);
  const gateways = new Map<Mode, Promise<TestGateway>>();
  const gatewayFor = (mode: Mode) => {
    if (!gateways.has(mode)) {
      gateways.set(
        mode,
        mode === 'sandbox'
          ? sharedGateway()
          : mode === 'time-skipping'
            ? startTimeSkippingGateway()
            : startTestGateway({}, { bank: 'simulator' }),
      );
    }
    return gateways.get(mode)!;
  };
  after(async () => {
    for (const [mode, gw] of gateways) if (mode !== 'sandbox') await (await gw).stop();
  });

  it('has commands to run, and setup blocks that define the shell helpers', () => {
    assert.ok(files.length >= 8, `guides with tested commands: ${files.join(', ')}`);
    assert.ok(setupBlocks().length >= 1);
  });

  for (const file of files) {
    it(file, async () => {
      const blocks = runnableBlocks(file);
      const gw = await gatewayFor(modeOf(blocks));
      const merchant = await gw.newMerchant('Docs Merchant');
      const work = mkdtempSync(path.join(os.tmpdir(), 'docs-test-'));
      const publicKey = path.join(work, 'public-key.pem');
      writeFileSync(publicKey, merchant.publicKeyPem);
      const config = gw.rt.config;
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TMPDIR: work,
        B: gw.baseUrl,
        M: merchant.merchantIdentifier,
        S: merchant.secretKey,
        K: merchant.apiKey,
        E: merchant.encryptionKeyId,
        T: config.secrets.opsToken,
        P: publicKey,
        ...(gw.bank ? { BANK: gw.bank.url, BANK_ADMIN: gw.bank.adminToken } : {}),
        // The CLI reads the same configuration as the gateway it operates.
        GATEWAY_ENV: 'test',
        MONGODB_URI: config.store.mongodbUri,
        MONGODB_DB: config.store.database,
        TEMPORAL_ADDRESS: config.temporal.address,
        TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
        MASTER_KEY: config.secrets.masterKey,
        OPS_TOKEN: config.secrets.opsToken,
        LOG_LEVEL: 'silent',
      };
      const script = [
        'set -uo pipefail',
        ...setupBlocks().map((b) => b.text),
        ...blocks.map((b) => `${b.text}\nprintf '\\n${END} %s\\n' "$?"`),
      ].join('\n');
      const errorsBefore = await serverErrors(gw);
      try {
        const run = await bash(script, env);
        const outputs = run.stdout.split(new RegExp(`\\n${END} `));
        const failures: string[] = [];
        blocks.forEach((b, i) => {
          const chunk = outputs[i] ?? '';
          const output = i === 0 ? chunk : chunk.slice(chunk.indexOf('\n') + 1);
          const code = outputs[i + 1]?.split('\n')[0];
          const where = `${b.file}:${b.line}`;
          if (code !== '0') {
            failures.push(`${where} exited ${code ?? '(never reached)'}\n${output}\n${run.stderr.slice(-2000)}`);
            return;
          }
          if (!b.expect) return;
          if (b.expect.lang === 'json') {
            const expected = JSON.parse(b.expect.text) as unknown;
            const actual = lastJsonLine(output);
            if (!contains(actual, expected)) failures.push(`${where} printed\n${output}\nexpected (a subset)\n${b.expect.text}`);
          } else {
            for (const line of b.expect.text.split('\n').filter((l) => l.trim())) {
              if (!output.includes(line.trim())) failures.push(`${where} printed\n${output}\nwithout the line: ${line}`);
            }
          }
        });
        assert.deepEqual(failures, []);
        assert.equal(await serverErrors(gw), errorsBefore, `${file}: a request got a 5xx`);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    });
  }
});
