import type { FormPairs } from './checkout-checksum';
import { LEGACY_KIT_FORMS, type LegacyEndpoint, type LegacyKitForm } from './legacy-kit-forms';

/**
 * How a legacy form (`'v1''v2'...` signed over values, never names) is read safely.
 *
 * With no value holding a single quote (checkout-checksum.ts), the signed text splits into exactly
 * the values the merchant signed, in their order: a payer re-posting a signed form can change
 * only the names. So a form is read only when its names are, exactly, a sequence a kit posts to
 * that endpoint (legacy-kit-forms.ts). Two kits posting the same number of fields to one endpoint
 * could still let a payer relabel one's values as the other's, so a form that reads as a valid
 * request with another outcome under another kit's names is refused as ambiguous too.
 */

export interface LegacyFormProblem {
  field: string;
  why: string;
}

export type KitFormMatch = { kit: LegacyKitForm; signed: FormPairs } | { problem: LegacyFormProblem };

const PATHS: Record<LegacyEndpoint, string> = {
  transact: '/transact',
  transactV2: '/transact?v=2',
  checktransaction: '/checktransaction',
  updatetransaction: '/updatetransaction',
};

export const kitFormsOf = (endpoint: LegacyEndpoint) => LEGACY_KIT_FORMS.filter((f) => f.endpoint === endpoint);

const sameNames = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

/** The kit whose sequence the form's names are, with the pairs it signed; or the first field out of every kit's place. */
export function matchKitForm(endpoint: LegacyEndpoint, pairs: FormPairs): KitFormMatch {
  const names = pairs.map(([k]) => k);
  const at = names.indexOf('checksum');
  const before = names.filter((k) => k !== 'checksum');
  for (const kit of kitFormsOf(endpoint)) {
    const after = kit.unsignedAfterChecksum;
    if (after) {
      if (sameNames(names, [...kit.names, 'checksum', ...after])) return { kit, signed: pairs.slice(0, at) };
    } else if (sameNames(before, kit.names)) {
      return { kit, signed: pairs.filter(([k]) => k !== 'checksum') };
    }
  }
  return { problem: firstMisplaced(endpoint, before) };
}

/** Against the kit sequence the names follow longest: the first name off it, or the first it misses. */
function firstMisplaced(endpoint: LegacyEndpoint, names: readonly string[]): LegacyFormProblem {
  const common = (seq: readonly string[]) => {
    let i = 0;
    while (i < names.length && i < seq.length && names[i] === seq[i]) i++;
    return i;
  };
  const best = kitFormsOf(endpoint)
    .map((kit) => ({ kit, n: common(kit.names) }))
    .reduce((a, b) => (b.n > a.n ? b : a));
  const rule = `a form to ${PATHS[endpoint]} is read only with the field names of one of Zaakpay's kits, in its order (the checksum signs values, not names)`;
  if (best.n < names.length) return { field: names[best.n], why: `not where any kit posts it: ${rule}` };
  return { field: best.kit.names[best.n] ?? 'checksum', why: `missing: ${rule}` };
}

/**
 * The signed values read under every other kit sequence of the endpoint with as many fields: when
 * `outcome` (what the request would do: null when it would be refused) differs from the matched
 * kit's, the form is ambiguous. Answers the first field whose name differs, or null.
 */
export function ambiguousField(
  endpoint: LegacyEndpoint,
  match: { kit: LegacyKitForm; signed: FormPairs },
  outcome: (fields: Record<string, string>) => string | null,
): string | null {
  const values = match.signed.map(([, v]) => v);
  const read = (names: readonly string[]) => outcome(Object.fromEntries(names.map((k, i) => [k, values[i]])));
  const own = read(match.kit.names);
  for (const other of kitFormsOf(endpoint)) {
    if (other.names.length !== values.length || sameNames(other.names, match.kit.names)) continue;
    const theirs = read(other.names);
    if (theirs !== null && theirs !== own) return match.kit.names.find((k, i) => other.names[i] !== k)!;
  }
  return null;
}
