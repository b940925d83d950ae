import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../../src/api/openapi';
import { allCommands, commandPath, createProgram } from '../../src/cli/program';
import { cliReference, REFERENCE_FILE } from '../../src/cli/reference';

/** Each operator API operation and the CLI command that performs it. */
const COMMAND_OF: Record<string, string> = {
  'POST /ops/v1/merchants': 'cli merchant create',
  'PATCH /ops/v1/merchants/{merchantIdentifier}': 'cli merchant update',
  'POST /ops/v1/merchants/{merchantIdentifier}/invitations': 'cli merchant invite',
  'POST /ops/v1/reconciliations': 'cli reconcile',
  'GET /ops/v1/reconciliations/{reconciliationId}': 'cli reconciliation show',
  'POST /ops/v1/chargebacks': 'cli chargeback raise',
  'GET /ops/v1/merchants/{merchantIdentifier}/api-keys': 'cli keys list',
  'POST /ops/v1/merchants/{merchantIdentifier}/api-keys': 'cli keys create',
  'POST /ops/v1/merchants/{merchantIdentifier}/api-keys/{keyId}/revoke': 'cli keys revoke',
  'POST /ops/v1/merchants/{merchantIdentifier}/secret-key/revoke-previous': 'cli keys revoke-previous-secret',
  'POST /ops/v1/merchants/{merchantIdentifier}/secret-key/rotate': 'cli keys rotate-secret',
  'GET /ops/v1/merchants/{merchantIdentifier}/encryption-keys': 'cli keys list-rsa',
  'POST /ops/v1/merchants/{merchantIdentifier}/encryption-keys/rotate': 'cli keys rotate-rsa',
  'POST /ops/v1/merchants/{merchantIdentifier}/encryption-keys/{keyId}/retire': 'cli keys retire-rsa',
  'POST /ops/v1/codec/encode': 'cli codec encode',
  'POST /ops/v1/codec/decode': 'cli codec decode',
  'GET /ops/v1/webhooks': 'cli webhooks list',
  'POST /ops/v1/webhooks/{deliveryId}/replay': 'cli webhooks replay',
  'POST /ops/v1/webhooks/replay': 'cli webhooks replay-failed',
  'GET /ops/v1/merchants/{merchantIdentifier}/webhook-signing-secret': 'cli webhooks secret show',
  'POST /ops/v1/merchants/{merchantIdentifier}/webhook-signing-secret/rotate': 'cli webhooks secret rotate',
  'GET /ops/v1/merchants/{merchantIdentifier}/webhook-endpoint': 'cli webhooks endpoint show',
  'POST /ops/v1/merchants/{merchantIdentifier}/webhook-endpoint/enable': 'cli webhooks endpoint enable',
  'PUT /ops/v1/merchants/{merchantIdentifier}/settlement-account': 'cli settlement-account set',
  'GET /ops/v1/merchants/{merchantIdentifier}/settlement-account': 'cli settlement-account show',
  'POST /ops/v1/merchants/{merchantIdentifier}/settlement-account/confirm': 'cli settlement-account confirm',
  'POST /ops/v1/merchants/{merchantIdentifier}/settlement-account/confirm-early': 'cli settlement-account confirm-early',
  'PUT /ops/v1/merchants/{merchantIdentifier}/master': 'cli link-master',
  'GET /ops/v1/merchants/{merchantIdentifier}/fee-plan': 'cli fee-plan show',
  'PUT /ops/v1/merchants/{merchantIdentifier}/fee-plan': 'cli fee-plan set',
  'POST /ops/v1/merchants/{merchantIdentifier}/settlements/hold': 'cli settlements hold',
  'POST /ops/v1/merchants/{merchantIdentifier}/settlements/release': 'cli settlements release',
  'POST /ops/v1/merchants/{merchantIdentifier}/settlements/run': 'cli settlements run',
  'GET /ops/v1/audit': 'cli audit',
  'GET /ops/v1/operator-tokens': 'cli operator-tokens list',
  'POST /ops/v1/operator-tokens': 'cli operator-tokens create',
  'POST /ops/v1/operator-tokens/{name}/rotate': 'cli operator-tokens rotate',
  'POST /ops/v1/operator-tokens/{name}/revoke': 'cli operator-tokens revoke',
  'GET /ops/v1/settlements/needs-attention': 'cli settlements attention',
  'GET /ops/v1/settlements/differences': 'cli settlements differences',
  'GET /ops/v1/settlements/{settlementId}': 'cli settlements show',
  'GET /ops/v1/merchants/{merchantIdentifier}/settlements': 'cli settlements list',
};

const leafCommands = () =>
  allCommands(createProgram({ client: () => assert.fail('no gateway'), print() {}, write() {}, log() {}, stdin: () => '' }))
    .filter((c) => c.commands.length === 0)
    .map(commandPath);

describe('Operator CLI reference (docs/operators/cli.md)', () => {
  it('is the CLI’s --help as it is now (regenerate with npm run -s docs:cli)', () => {
    assert.equal(readFileSync(REFERENCE_FILE, 'utf8'), cliReference());
  });

  it('has a command for every operation of the operator API in the OpenAPI document', () => {
    const operations = Object.entries(buildOpenApiDocument('http://gateway.test', true).paths as Record<string, object>)
      .filter(([p]) => p.startsWith('/ops/'))
      .flatMap(([p, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${p}`));
    assert.deepEqual(
      operations.sort(),
      Object.keys(COMMAND_OF).sort(),
      'a new operator route needs its CLI command (and this table)',
    );
    const commands = leafCommands();
    for (const command of Object.values(COMMAND_OF)) assert.ok(commands.includes(command), `${command} exists`);
  });

  it('lists every command with its own section', () => {
    const reference = readFileSync(REFERENCE_FILE, 'utf8');
    for (const command of leafCommands()) assert.ok(reference.includes(`## \`${command}\`\n`), command);
  });
});
