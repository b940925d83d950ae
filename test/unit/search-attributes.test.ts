import { strict as assert } from 'node:assert';
import { configuredSearchAttributes } from '../../src/devstack/temporal-server';
import { SearchAttributeType } from '@temporalio/common';
import { customSearchAttributes } from '../../src/temporal/search-attributes';

// How `temporal` CLI and the YAML spell the types the code uses.
const typeName: Partial<Record<SearchAttributeType, string>> = { [SearchAttributeType.KEYWORD]: 'Keyword' };

describe('search attributes', () => {
  it('temporal-config/search-attributes.yaml registers exactly the keys the code uses', () => {
    const inCode = customSearchAttributes
      .map((k) => ({ name: k.name, type: typeName[k.type] }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const inConfig = configuredSearchAttributes().sort((a, b) => a.name.localeCompare(b.name));
    assert.deepEqual(inConfig, inCode);
  });
});
