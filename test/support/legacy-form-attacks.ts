import fc from 'fast-check';
import type { Pairs } from './checkout';
import { mangled, MANGLE_NAMES, type Mangle } from './legacy-form-posting';

/**
 * The attacker's moves on a signed legacy form, for the attacker property
 * (test/api/legacy-form-property.test.ts): what they type before the merchant signs (aims and
 * shifts) and how they rearrange the signed fields before posting them.
 */

export const EVIL_RETURN = 'https://evil.example/r';
/** Stands for another order's id in an aim: a fresh one at /transact, another paid one at the XML APIs. */
export const OTHER_ORDER = '<other order>';
const UPDATE_NAMES = ['merchantIdentifier', 'orderId', 'mode', 'updateDesired', 'updateReason', 'amount', 'merchantRefId'];
const CHECK_NAMES = ['merchantIdentifier', 'orderId', 'mode', 'submitButton'];
const CHECKOUT_NAMES = [
  'amount',
  'orderId',
  'returnUrl',
  'currency',
  'mode',
  'txnType',
  'merchantIdentifier',
  'buyerFirstName',
  'productDescription',
];

/** What an attacker aims at an endpoint's decisive names: the value they type, then rename it to. */
export const AIMS = {
  checkout: {
    amount: ['900'],
    orderId: [OTHER_ORDER],
    returnUrl: [EVIL_RETURN],
    currency: ['INR'],
    mode: ['1'],
    txnType: ['0'],
  },
  refund: { updateDesired: ['14', '22'], updateReason: ['Kumar', 'Test reason'], amount: ['900', '1'], orderId: [OTHER_ORDER] },
  status: { orderId: [OTHER_ORDER], mode: ['0', '1'] },
} as const;
export type Target = keyof typeof AIMS;

export type Op =
  | { kind: 'rename'; at: number; name: string }
  | { kind: 'move'; name: string; from: number }
  | { kind: 'merge'; at: number; length: number; name: string }
  | { kind: 'split'; at: number; name: string }
  | { kind: 'drop'; at: number }
  | { kind: 'add'; at: number; name: string; value: string }
  | { kind: 'aim'; at: number; name: string; value: string }
  | { kind: 'shift'; at: number; name: string; value: string }
  | { kind: 'mangle'; at: number; name: string | null; how: Mangle };

/**
 * A shift reaches only names after a payer-typed field: at /transact, the amount, the payment
 * fields, a kit's late orderId and WordPress's late returnUrl; weighted towards the amount.
 */
const SHIFTED: Record<string, number> = {
  amount: 3,
  orderId: 2,
  returnUrl: 2,
  mode: 1,
  txnType: 1,
  updateDesired: 2,
  updateReason: 2,
};

const REFUND_NEEDS = new Set(['updateDesired', 'updateReason']);

const aimArb = (target: Target, kind: 'aim' | 'shift'): fc.Arbitrary<Op> =>
  fc.oneof(
    ...Object.entries(AIMS[target])
      .filter(([name]) => kind === 'aim' || name in SHIFTED)
      .map(([name, values]) => ({
        // A refund takes two aims at once (what and why), each drawn more often.
        weight: kind === 'shift' ? SHIFTED[name]! : REFUND_NEEDS.has(name) ? 2 : 1,
        arbitrary: fc.record({
          kind: fc.constant(kind),
          at: fc.nat(),
          name: fc.constant(name),
          value: fc.constantFrom(...values),
        }),
      })),
  );

/** Rearrangements, naming fields with the endpoint's own names (an attacker aims at them) and a few others. */
export const opArb = (target: Target): fc.Arbitrary<Op> => {
  const endpointNames = NAMES_OF[target];
  const NAMES = [...endpointNames, ...endpointNames, 'x', 'y', 'btn_submit', 'udf1'];
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), name: fc.constantFrom(...NAMES) }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('move' as const),
        name: fc.constantFrom('amount', 'orderId', 'returnUrl'),
        from: fc.nat(),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('merge' as const),
        at: fc.nat(),
        length: fc.integer({ min: 2, max: 8 }),
        name: fc.constantFrom(...NAMES),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('split' as const), at: fc.nat(), name: fc.constantFrom(...NAMES) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('mangle' as const),
        at: fc.nat(),
        name: fc.option(fc.constantFrom(...NAMES)),
        how: fc.constantFrom(...MANGLE_NAMES),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        at: fc.nat(),
        name: fc.constantFrom(...NAMES),
        value: fc.constantFrom('', '1', '14'),
      }),
    },
    // A shift needs quoted values re-split under a kit's own names: /transact's attack; the XML APIs' is renaming.
    { weight: target === 'checkout' ? 4 : 12, arbitrary: aimArb(target, 'aim') },
    { weight: target === 'checkout' ? 8 : 2, arbitrary: aimArb(target, 'shift') },
  );
};
const NAMES_OF = { checkout: CHECKOUT_NAMES, refund: UPDATE_NAMES, status: CHECK_NAMES };

const joined = (values: readonly string[]) => values.join("''");

/** The payer-typed field a shift types into: one of those before the aimed name. */
function shiftedField(f: Pairs, op: { at: number; name: string }, payerTyped: readonly string[]): string | undefined {
  const aimed = f.findIndex(([k]) => k === op.name);
  const before = payerTyped.filter((k) => {
    const n = f.findIndex(([name]) => name === k);
    return n >= 0 && n < aimed;
  });
  return before[op.at % Math.max(before.length, 1)];
}

/**
 * What aims and shifts make the payer type, before the merchant signs: an aim types its value in a
 * payer-typed field; a shift types, in a payer-typed field before the aimed name, what it held, the
 * form's values up to that name and then its value, joined by `''` (so the signed text reads as the
 * same names with the aimed one holding the value).
 */
export function typedFor(
  ops: readonly Op[],
  payerTyped: readonly string[],
  typed: Record<string, string>,
  form: (t: Record<string, string>) => Pairs,
) {
  const t = { ...typed };
  for (const op of ops) {
    if ((op.kind !== 'aim' && op.kind !== 'shift') || payerTyped.length === 0) continue;
    if (op.kind === 'aim') {
      t[payerTyped[op.at % payerTyped.length]!] = op.value;
      continue;
    }
    const f = form(t);
    const payer = shiftedField(f, op, payerTyped);
    const [p, at] = [f.findIndex(([k]) => k === payer), f.findIndex(([k]) => k === op.name)];
    if (payer === undefined || at + 1 >= f.length) continue;
    t[payer] = joined(
      f
        .slice(p, at)
        .map(([, v]) => v)
        .concat(op.value),
    );
  }
  return t;
}
/** Applies one rearrangement to the fields (checksum left out); the quoted text is kept by rename, move, merge and split. */
export function apply(fields: Pairs, op: Op, payerAt: number[], payerNames: readonly string[]): Pairs {
  const f = fields.map(([k, v]) => [k, v] as [string, string]);
  const i = (n: number) => n % Math.max(f.length, 1);
  switch (op.kind) {
    case 'rename':
      f[i(op.at)]![0] = op.name;
      return f;
    case 'move': {
      // The payer's value under the signed field's name; the values between merged into the field after it.
      const target = f.findIndex(([k]) => k === op.name);
      const from = payerAt.length ? payerAt[op.from % payerAt.length]! : -1;
      if (target < 0 || from < 0 || from >= target || target + 1 >= f.length) return f;
      const merged = f
        .slice(from + 1, target + 2)
        .map(([, v]) => v)
        .join("''");
      return [...f.slice(0, from), [op.name, f[from]![1]], [f[target + 1]![0], merged], ...f.slice(target + 2)];
    }
    case 'merge': {
      const at = i(op.at);
      const merged = f
        .slice(at, at + op.length)
        .map(([, v]) => v)
        .join("''");
      return [...f.slice(0, at), [op.name, merged], ...f.slice(at + op.length)];
    }
    case 'split': {
      const at = f.findIndex(([, v], n) => n >= i(op.at) && v.includes("''"));
      if (at < 0) return f;
      const [k, v] = f[at]!;
      const cut = v.indexOf("''");
      return [...f.slice(0, at), [k, v.slice(0, cut)], [op.name, v.slice(cut + 2)], ...f.slice(at + 1)];
    }
    case 'drop':
      return f.filter((_, n) => n !== i(op.at));
    case 'add':
      return [...f.slice(0, i(op.at)), [op.name, op.value], ...f.slice(i(op.at))];
    case 'mangle': {
      // A field (renamed first, when the op names one) whose name or value PHP would read otherwise.
      if (f.length === 0) return f;
      const [k, v] = f[i(op.at)]!;
      f[i(op.at)] = mangled([op.name ?? k, v], op.how);
      return f;
    }
    case 'aim': {
      // The typed field takes the aimed name; a field already holding that name goes under another.
      const at = f.findIndex(([k]) => k === payerNames[op.at % Math.max(payerNames.length, 1)]);
      if (at < 0) return f;
      return f.map(([k, v], n) => (n === at ? [op.name, v] : k === op.name ? [`f${n}`, v] : [k, v]));
    }
    case 'shift': {
      // The typed value split into its parts under the names that follow it; the signed values it
      // pushed along merged into the field after the aimed one. The names stay as the kit posts them.
      const at = f.findIndex(([k]) => k === shiftedField(f, op, payerNames));
      const extra = f.findIndex(([k]) => k === op.name) - at;
      const typed = at < 0 ? [] : f[at]![1].split("''");
      if (at < 0 || extra <= 0 || typed.length <= extra) return f;
      const parts = [joined(typed.slice(0, typed.length - extra)), ...typed.slice(typed.length - extra)];
      const values = [...f.slice(0, at).map(([, v]) => v), ...parts, ...f.slice(at + 1).map(([, v]) => v)];
      const into = at + parts.length;
      if (into + extra >= values.length) return f;
      const regrouped = [
        ...values.slice(0, into),
        joined(values.slice(into, into + extra + 1)),
        ...values.slice(into + extra + 1),
      ];
      return f.map(([k], n) => [k, regrouped[n]!] as [string, string]);
    }
  }
}
