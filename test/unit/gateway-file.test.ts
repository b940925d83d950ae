import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  gatewayFile,
  localAddress,
  readRunningGateway,
  removeRunningGateway,
  writeRunningGateway,
} from '../../src/devstack/gateway-file';

describe('DATA_DIR/gateway.json: the gateway npm start announces to the CLI', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-file-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const running = {
    baseUrl: 'http://127.0.0.1:3000',
    opsBaseUrl: 'http://127.0.0.1:3001',
    opsToken: 'tok',
    timeSkipping: true,
    pid: 4242,
  };

  it('is written readable by its owner only and read back', () => {
    writeRunningGateway(dir, running);
    assert.equal(statSync(gatewayFile(dir)).mode & 0o777, 0o600);
    assert.deepEqual(readRunningGateway(dir), running);
  });

  it('is removed only by the process that wrote it (a second npm start may have replaced it)', () => {
    writeRunningGateway(dir, running);
    removeRunningGateway(dir, 1);
    assert.ok(existsSync(gatewayFile(dir)));
    removeRunningGateway(dir, 4242);
    assert.equal(existsSync(gatewayFile(dir)), false);
    assert.equal(readRunningGateway(dir), null);
  });

  it('a damaged file reads as no gateway', () => {
    writeFileSync(gatewayFile(dir), '{"baseUrl": 3');
    assert.equal(readRunningGateway(dir), null);
    writeFileSync(gatewayFile(dir), '{"baseUrl": "http://x"}');
    assert.equal(readRunningGateway(dir), null, 'no token');
  });

  it('a wildcard bind is reached on loopback', () => {
    assert.equal(localAddress('0.0.0.0', 3000), 'http://127.0.0.1:3000');
    assert.equal(localAddress('::', 3000), 'http://127.0.0.1:3000');
    assert.equal(localAddress('::1', 8080), 'http://[::1]:8080');
    assert.equal(localAddress('127.0.0.1', 3000), 'http://127.0.0.1:3000');
  });
});
