import { strict as assert } from 'node:assert';
import { configuredSearchAttributes } from '../../src/devstack/temporal-server';
import { customSearchAttributes, searchAttributeTypeName } from '../../src/temporal/search-attributes';

describe('search attributes', () => {
  it('temporal-config/search-attributes.yaml registers exactly the keys the code uses', () => {
    const inCode = customSearchAttributes
      .map((k) => ({ name: k.name, type: searchAttributeTypeName[k.type] }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const inConfig = configuredSearchAttributes().sort((a, b) => a.name.localeCompare(b.name));
    assert.deepEqual(inConfig, inCode);
  });
});
