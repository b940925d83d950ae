'use strict';
/**
 * Puts the legacy forms' two old bugs back, for test/api/legacy-form-plants.test.ts alone: it runs
 * the attacker property (test/api/legacy-form-property.test.ts) in a child mocha with
 * `--require test/support/legacy-form-plants.cjs` and LEGACY_FORM_PLANT naming the bugs
 * (comma-separated), and expects the property to fail. The gateway's code never reads the switch:
 * this file swaps the exports its routes import, before any of them is loaded.
 *
 * - `names`: /updatetransaction and /checktransaction read any field names, verifying the value-only
 *   checksum over the fields as posted (a checkout form renamed into a refund or a status read).
 * - `quotes`: a checksum over raw values counts even when a value holds a single quote, so
 *   `'A''B'` re-splits and re-merges into other values under the same names.
 */
const Module = require('node:module');
const path = require('node:path');

const plants = new Set(
  (process.env.LEGACY_FORM_PLANT ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const known = new Set(['names', 'quotes']);
for (const p of plants) if (!known.has(p)) throw new Error(`LEGACY_FORM_PLANT: unknown plant ${p} (names, quotes)`);

const domain = path.join(__dirname, '..', '..', 'src', 'domain');
const XML_ENDPOINTS = new Set(['checktransaction', 'updatetransaction']);

/** Replacements by module file, each given the module's real exports. */
const swaps = {
  [path.join(domain, 'legacy-form-reading.ts')]: (real) =>
    plants.has('names')
      ? {
          matchKitForm(endpoint, pairs) {
            if (!XML_ENDPOINTS.has(endpoint)) return real.matchKitForm(endpoint, pairs);
            const signed = pairs.filter(([k]) => k !== 'checksum');
            return { kit: { kit: 'any names', source: 'planted', endpoint, names: signed.map(([k]) => k) }, signed };
          },
          ambiguousField(endpoint, match, outcome) {
            return XML_ENDPOINTS.has(endpoint) ? null : real.ambiguousField(endpoint, match, outcome);
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
