import fc from 'fast-check';
import type { Pairs } from './checkout';
import { loadPluginFixtures, pluginCallForm, type PluginCall, type PluginFixture } from './plugin-forms';

/**
 * How an attacker posts a signed legacy form beyond renaming its fields: where the checksum goes
 * and whether it is posted twice, the names and values PHP's `$_POST` reads otherwise, the other
 * addresses and versions of the checkout, and the kits' signed status and update forms as the form
 * they start from.
 */

/**
 * Where the checksum goes: null where the kit posts it (after the signed fields); a second one
 * (`same` value or `other`, a checksum the merchant signed for another form), where PHP would take
 * the last of two: the gateway refuses a field posted twice, so such a post must open nothing.
 */
export interface ChecksumPlacing {
  at: number | null;
  twin: null | 'same' | 'other';
  twinAt: number;
}

export const checksumPlacingArb: fc.Arbitrary<ChecksumPlacing> = fc.record({
  at: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
  twin: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('same' as const, 'other' as const) },
  ),
  twinAt: fc.nat(),
});

/** The fields with the checksum (and its twin) put where the placing says. */
export function placeChecksum(fields: Pairs, checksum: string, other: string, p: ChecksumPlacing): Pairs {
  const insert = (f: Pairs, at: number | null, pair: [string, string]): Pairs => {
    const n = at === null ? f.length : at % (f.length + 1);
    return [...f.slice(0, n), pair, ...f.slice(n)];
  };
  const once = insert(fields, p.at, ['checksum', checksum]);
  return p.twin === null ? once : insert(once, p.twinAt, ['checksum', p.twin === 'same' ? checksum : other]);
}

/**
 * What PHP reads otherwise than the bytes say: `.` and space in a name become `_`, leading spaces
 * go, `[]` makes an array, a NUL ends a name; values keep NULs and surrounding spaces that a
 * trim would take. The gateway must read the bytes, never PHP's guess.
 */
export const MANGLES = {
  dotName: (k: string) => (k.includes('_') ? k.replace(/_/g, '.') : `${k}.`),
  spaceName: (k: string) => (/[a-z][A-Z]/.test(k) ? k.replace(/([a-z])([A-Z])/, '$1 $2') : `${k} x`),
  bracketName: (k: string) => `${k}[]`,
  nulName: (k: string) => `${k}\0`,
  leadName: (k: string) => ` ${k}`,
  trailName: (k: string) => `${k} `,
} as const;
export const VALUE_MANGLES = {
  nulValue: (v: string) => `${v}\0`,
  leadValue: (v: string) => ` ${v}`,
  trailValue: (v: string) => `${v} `,
} as const;
export type Mangle = keyof typeof MANGLES | keyof typeof VALUE_MANGLES;
export const MANGLE_NAMES = [...Object.keys(MANGLES), ...Object.keys(VALUE_MANGLES)] as Mangle[];

export function mangled(pair: [string, string], how: Mangle): [string, string] {
  const [k, v] = pair;
  if (how in MANGLES) return [MANGLES[how as keyof typeof MANGLES](k), v];
  return [k, VALUE_MANGLES[how as keyof typeof VALUE_MANGLES](v)];
}

/**
 * Where a signed checkout form is posted: first to `/transact` (or `?v=3`, read as `/transact`),
 * where the signed order's page may open; then to `?v=2` (WooCommerce 2.0's address, so that
 * kit's attacks always go there), or to an address that must open no page and create no mandate:
 * an unknown version, and `/transactU` at any (the custom checkout's `data` at v=8, mandates at 12
 * and 13).
 */
export const checkoutPathsArb = fc.tuple(
  fc.oneof({ weight: 6, arbitrary: fc.constant('/transact') }, { weight: 1, arbitrary: fc.constant('/transact?v=3') }),
  fc.oneof(
    { weight: 2, arbitrary: fc.constant('/transact?v=2') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '/transact?v=9',
        '/transact?v=',
        '/transactU',
        '/transactU?v=2',
        '/transactU?v=3',
        '/transactU?v=8',
        '/transactU?v=12',
        '/transactU?v=77',
      ),
    },
  ),
);
export const opensPages = (path: string) => ['/transact', '/transact?v=2', '/transact?v=3'].includes(path);

/** A kit's signed status or update form (the legacy XML APIs) as an attacker's starting form. */
export interface XmlSource {
  fixture: PluginFixture;
  call: PluginCall;
  kind: 'status' | 'update';
  /** Fields the merchant's staff type on the kits' input pages (the update's reason). */
  payerTyped: string[];
}

export function xmlSources(): XmlSource[] {
  return loadPluginFixtures().flatMap((fixture) => {
    const calls: { call: PluginCall; kind: 'status' | 'update' }[] = [
      ...(fixture.statusCall ? [{ call: fixture.statusCall, kind: 'status' as const }] : []),
      ...(fixture.refundCall ? [{ call: fixture.refundCall, kind: 'update' as const }] : []),
      ...(fixture.updateCalls ?? []).map((call) => ({ call, kind: 'update' as const })),
    ];
    return calls
      .filter(({ call }) => Array.isArray(call.signedFields))
      .map(({ call, kind }) => ({ fixture, call, kind, payerTyped: kind === 'update' ? ['updateReason'] : [] }));
  });
}

/**
 * The source's form signed for an order: a status check, or an update the gateway takes for no
 * refund (7, capture, as the kits' sample pages and Magento's capture send it).
 */
export function xmlSourceForm(
  s: XmlSource,
  o: { merchantIdentifier: string; secretKey: string; orderId: string; typed: Record<string, string> },
): Pairs {
  const values = {
    merchantIdentifier: o.merchantIdentifier,
    orderId: o.orderId,
    mode: '0',
    submitButton: 'Check Status',
    updateDesired: '7',
    updateReason: 'payment captured',
    ...o.typed,
  };
  return pluginCallForm(s.fixture, s.call, values, o.secretKey);
}
