import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { generatedTypes, GENERATED_TYPES_PATH } from '../scripts/generated-types';

describe('SDK: generated types', function () {
  this.timeout(60_000);
  it("are what openapi-typescript makes of the gateway's current OpenAPI document (run `npm run generate` in sdk/ if not)", async () => {
    assert.equal(readFileSync(GENERATED_TYPES_PATH, 'utf8'), await generatedTypes(), 'sdk/src/generated/openapi.ts is stale');
  });
});
