'use strict';
/**
 * Puts the legacy forms' old bugs back, for test/api/legacy-form-plants.test.ts alone: it runs
 * the attacker property (test/api/legacy-form-property.test.ts) in a child mocha with
 * `--require test/support/legacy-form-plants.cjs` and LEGACY_FORM_PLANT naming the bugs
 * (comma-separated), and expects the property to fail. The gateway's code never reads the switch:
 * this file swaps the exports its routes import, before any of them is loaded.
 *
 * - `names`: /updatetransaction and /checktransaction read any field names, verifying the value-only
 *   checksum over the fields as posted (a checkout form renamed into a refund or a status read).
 * - `quotes`: a checksum over raw values counts even when a value holds a single quote, so
 *   `'A''B'` re-splits and re-merges into other values under the same names.
 * - `transact-names`: /transact (and ?v=3, read as it) reads any field names, verifying the
 *   value-only checksum over every field posted but the checksum and taking the order from those
 *   fields by their names (a signed `900` renamed `amount`); ?v=2 and the XML APIs keep the kits' names.
 */
const Module = require('node:module');
const path = require('node:path');

const plants = new Set(
  (process.env.LEGACY_FORM_PLANT ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const known = new Set(['names', 'quotes', 'transact-names']);
for (const p of plants) if (!known.has(p)) throw new Error(`LEGACY_FORM_PLANT: unknown plant ${p} (${[...known].join(', ')})`);

const domain = path.join(__dirname, '..', '..', 'src', 'domain');
const XML_ENDPOINTS = new Set(['checktransaction', 'updatetransaction']);
/** The endpoints whose names the plants read freely. */
const freeEndpoints = new Set([
  ...(plants.has('names') ? XML_ENDPOINTS : []),
  ...(plants.has('transact-names') ? ['transact'] : []),
]);

/** Replacements by module file, each given the module's real exports. */
const swaps = {
  [path.join(domain, 'legacy-form-reading.ts')]: (real) =>
    freeEndpoints.size > 0
      ? {
          matchKitForm(endpoint, pairs) {
            // A kit's own sequence reads as before (osCommerce's unsigned x and y stay unsigned).
            const kits = real.matchKitForm(endpoint, pairs);
            if (!freeEndpoints.has(endpoint) || 'kit' in kits) return kits;
            const signed = pairs.filter(([k]) => k !== 'checksum');
            return { kit: { kit: 'any names', source: 'planted', endpoint, names: signed.map(([k]) => k) }, signed };
          },
          ambiguousField(endpoint, match, outcome) {
            return match.kit.kit === 'any names' ? null : real.ambiguousField(endpoint, match, outcome);
          },
        }
      : {},
  [path.join(domain, 'checkout-checksum.ts')]: (real) =>
    plants.has('quotes')
      ? {
          signedLegacyFields(keys, pairs, presented) {
            const verified = real.signedLegacyFields(keys, pairs, presented);
            return verified && 'quoted' in verified ? { signed: pairs.filter(([k]) => k !== 'checksum') } : verified;
          },
        }
      : {},
};

if (plants.size > 0) {
  const load = Module._load;
  const swapped = new Map();
  Module._load = function plantedLoad(request, parent, isMain) {
    const real = load.call(this, request, parent, isMain);
    if (!parent || !request.startsWith('.')) return real;
    let file;
    try {
      file = Module._resolveFilename(request, parent, isMain);
    } catch {
      return real;
    }
    const swap = swaps[file];
    if (!swap) return real;
    if (!swapped.has(file)) {
      const over = swap(real);
      // Read through at call time: a module still loading (an import cycle) gains exports later.
      swapped.set(file, new Proxy({}, { get: (_, k) => (k in over ? over[k] : real[k]), has: (_, k) => k in over || k in real }));
    }
    return swapped.get(file);
  };
  process.stderr.write(`legacy-form-plants: planted ${[...plants].join(', ')}\n`);
}
