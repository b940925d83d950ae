import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hmac, phpSanitize, type Pairs } from './checkout';

/**
 * Zaakpay's shop plugins and kits as test/fixtures/zaakpay-plugins records them: each form built
 * exactly as its plugin posts it (names, order, what its platform adds, its checksum), and each
 * plugin's own check of the return, reimplemented from the fixture.
 */

export interface PlatformAdd {
  name: string;
  where: string;
  signed: boolean;
  example: string;
}

export interface PluginEntry {
  endpoint: string;
  file: string;
  line: number;
  variant?: string;
  fields: string[];
  /** Names whose values are signed `'v1''v2'…`, in order; a sentence for the JSON schemes. */
  signedFields: string[] | string;
  checksum: string;
  payerTyped: string[];
  platformAdds: PlatformAdd[];
  returnUrl: string | null;
}

export interface ReturnCheck {
  file: string;
  line: number;
  /** Names checked in this order, or every posted field but checksum in wire order. */
  fields: string[] | '*posted';
  sanitize?: 'php' | 'none';
  trimValues?: boolean;
  descriptionSuffix?: string;
  /** The code the plugin (or, for a kit that only shows the return, the code built on it) takes as paid; null: it never looks. */
  successCode: string | null;
  successText: string | null;
  alsoChecks?: { field: string; equals: string; line: number }[];
  rule: string;
}

export interface PluginCall {
  endpoint: string;
  file: string;
  line: number;
  fields: string[];
  signedFields: string[] | string;
  sanitize?: 'php' | 'jsp';
  values?: Record<string, string>;
}

export interface PluginFixture {
  name: string;
  plugin: string;
  repository: string;
  entries: PluginEntry[];
  returnCheck: ReturnCheck;
  statusCall?: PluginCall;
  refundCall?: PluginCall | null;
  updateCalls?: (PluginCall & { use: string; values: Record<string, string>; expects: string })[];
}

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'zaakpay-plugins');

export function loadPluginFixtures(): PluginFixture[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ''), ...JSON.parse(readFileSync(path.join(FIXTURES, f), 'utf8')) }));
}

/** The JSP kit's ParamSanitizer.sanitizeParam (from its jar): these characters, spaces included, go. */
export const jspSanitize = (v: string) => v.replace(/[><(){}?&* ~`!#$%^=+|\\:'";,\][]+/g, '');

/** What a shopper fills in and a shop adds, by field name (ShipTo and shipTo alike). */
const PAYER: Record<string, string> = {
  buyeremail: 'asha.kumar@example.com',
  buyerfirstname: 'Asha',
  buyerlastname: 'Kumar',
  buyeraddress: '14 MG Road',
  buyercity: 'Bengaluru',
  buyerstate: 'Karnataka',
  buyercountry: 'India',
  buyerpincode: '560001',
  buyerphonenumber: '9876543210',
  shiptoaddress: '22 Park Street',
  shiptocity: 'Kolkata',
  shiptostate: 'West Bengal',
  shiptocountry: 'India',
  shiptopincode: '700016',
  shiptophonenumber: '9876543211',
  'shiptophone number': '9876543211',
  shiptofirstname: 'Ravi',
  shiptolastname: 'Iyer',
};
const SHOP: Record<string, string> = {
  txntype: '1',
  zppayoption: '1',
  mode: '0',
  currency: 'INR',
  merchantipaddress: '127.0.0.1',
  purpose: '1',
  productdescription: 'Masala chai and biscuits',
};

export interface FormContext {
  merchantIdentifier: string;
  secretKey: string;
  orderId: string;
  amount: string;
  returnUrl: string;
  txnDate: string;
  /** What this payer typed, by field name, instead of the usual shopper's values. */
  typed?: Record<string, string>;
}

/** A plugin's value for one field: what the shopper typed, what the shop fixes, or what the platform adds. */
function valueOf(fixture: PluginFixture, entry: PluginEntry, name: string, ctx: FormContext): string {
  const add = entry.platformAdds.find((a) => a.name === name);
  if (add) return add.example;
  if (ctx.typed?.[name] !== undefined) return ctx.typed[name];
  const k = name.toLowerCase();
  if (k === 'merchantidentifier') return ctx.merchantIdentifier;
  if (k === 'orderid') return ctx.orderId;
  if (k === 'amount') return ctx.amount;
  if (k === 'returnurl') return ctx.returnUrl;
  if (k === 'txndate') return ctx.txnDate;
  if (/^product[1-4]description$/.test(k)) return '';
  // VirtueMart 1.2 posts its ShipTo fields empty, always.
  if (fixture.name === 'virtuemart-1.2' && k.startsWith('shipto')) return '';
  return PAYER[k] ?? SHOP[k] ?? '';
}

/** How the plugin's checksum reads a value: PHP kits and plugins sign PHP-sanitized values. */
function signedValue(fixture: PluginFixture, name: string, v: string): string {
  if (/jsp/.test(fixture.name)) return jspSanitize(v);
  if (/python|ruby/.test(fixture.name)) return v;
  return phpSanitize(name, v);
}

/** The fields the plugin's page posts, checksum left out, with the values it posts. */
export function pluginFields(fixture: PluginFixture, entry: PluginEntry, ctx: FormContext): Pairs {
  const jsp = /jsp/.test(fixture.name);
  return entry.fields
    .filter((name) => name !== 'checksum')
    .map((name) => {
      const v = valueOf(fixture, entry, name, ctx);
      // The JSP kit posts the values it signed, already sanitized.
      return [name, jsp && name !== 'returnUrl' ? jspSanitize(v) : v] as [string, string];
    });
}

/** The form as the plugin's page posts it: every field in its order, the checksum as it computes it. */
export function pluginForm(fixture: PluginFixture, entry: PluginEntry, ctx: FormContext): Pairs {
  if (!Array.isArray(entry.signedFields)) throw new Error(`${fixture.name} does not sign quoted values`);
  const posted = new Map(pluginFields(fixture, entry, ctx));
  const checksum = hmac(
    ctx.secretKey,
    entry.signedFields.map((k) => `'${signedValue(fixture, k, posted.get(k) ?? '')}'`).join(''),
  );
  return entry.fields.map((k) => [k, k === 'checksum' ? checksum : posted.get(k)!] as [string, string]);
}

/** The Python kit's return check runs over a Python 2 dict: these are its orders for the two returns. */
const PYTHON_RETURN_ORDER: Record<string, string[]> = {
  'orderId,responseCode,responseDescription': ['orderId', 'responseDescription', 'responseCode'],
  'amount,orderId,responseCode,responseDescription': ['orderId', 'amount', 'responseDescription', 'responseCode'],
};

/** The plugin's own verdict on a return it received: does its checksum check pass, and does it call it paid. */
export function pluginReadsReturn(
  fixture: PluginFixture,
  fields: Pairs,
  secretKey: string,
  expected: { amount: string },
): { verified: boolean; paid: boolean } {
  const rc = fixture.returnCheck;
  const posted = fields.filter(([k]) => k !== 'checksum');
  const get = (k: string) => new Map(fields).get(k) ?? '';
  let names: string[];
  if (fixture.name === 'python-kit') names = PYTHON_RETURN_ORDER[posted.map(([k]) => k).join(',')] ?? [];
  else names = rc.fields === '*posted' ? posted.map(([k]) => k) : rc.fields;
  const values = names.map((k) => {
    let v = get(k);
    if (rc.trimValues) v = v.trim();
    if (k === 'responseDescription' && rc.descriptionSuffix) v += rc.descriptionSuffix;
    return rc.sanitize === 'php' ? phpSanitize(k, v) : v;
  });
  const verified = names.length > 0 && hmac(secretKey, values.map((v) => `'${v}'`).join('')) === get('checksum');
  const codeOk = rc.successCode === null || get('responseCode') === rc.successCode;
  const textOk = rc.successText === null || get('responseDescription') === rc.successText;
  const alsoOk = (rc.alsoChecks ?? []).every((c) => (c.field === 'amount' ? get('amount') === expected.amount : true));
  return { verified, paid: verified && codeOk && textOk && alsoOk };
}

/** A status or update call's form as the plugin posts it, signed as it signs. */
export function pluginCallForm(
  fixture: PluginFixture,
  call: PluginCall,
  values: Record<string, string>,
  secretKey: string,
): Pairs {
  if (!Array.isArray(call.signedFields)) throw new Error(`${fixture.name}'s ${call.endpoint} is not a quoted-values form`);
  const sanitize = (k: string, v: string) => (call.sanitize === 'jsp' ? jspSanitize(v) : phpSanitize(k, v));
  const posted = call.fields.filter((k) => k !== 'checksum').map((k) => [k, sanitize(k, values[k] ?? '')] as [string, string]);
  const m = new Map(posted);
  const checksum = hmac(secretKey, call.signedFields.map((k) => `'${m.get(k) ?? ''}'`).join(''));
  return [...posted, ['checksum', checksum]];
}

/** Every checkout entry of every fixture that signs quoted values (the legacy /transact family). */
export function legacyEntries(): { fixture: PluginFixture; entry: PluginEntry }[] {
  return loadPluginFixtures().flatMap((fixture) =>
    fixture.entries.filter((e) => Array.isArray(e.signedFields)).map((entry) => ({ fixture, entry })),
  );
}
