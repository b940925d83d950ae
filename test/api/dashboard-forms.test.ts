import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { dashboardUser, type FormClient } from '../support/dashboard';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';

/** A POST form as a page renders it: its address and its fields with the values a person would send. */
interface PageForm {
  page: string;
  action: string;
  fields: Record<string, string>;
}

const unescape = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** What a person types into an empty field, by its name (so that only the extra fields are wrong). */
const TYPED: Record<string, string> = {
  label: 'forms test',
  email: 'forms.test@merchant.example',
  webhookUrl: 'https://example.com/hook',
  amount: '1.00',
  reason: 'forms test',
  orderId: 'forms-test-order',
  productDescription: 'forms test',
  customerEmail: 'payer@merchant.example',
  ifsc: 'HDFC0001234',
  accountNumber: '123456789012',
  holderName: 'Forms Test',
};

/**
 * Fields no dashboard form shows, which a handler binding whatever is posted would store: the
 * merchant's settings only operators set, and what provisioning or a stored document holds.
 */
const UNSHOWN: Record<string, string> = {
  defaultReturnUrl: 'https://evil.example/return',
  autoRefund: 'on',
  settlementWebhook: 'on',
  webhookFormat: 'form',
  merchantIdentifier: 'someone-else',
  secretKey: 'x'.repeat(32),
  name: 'Renamed',
  version: '0',
  masterMerchantIdentifier: 'someone-else',
  role: 'owner',
};

/** Every POST form of a page (the CSRF token left out: the client adds the session's). */
function postForms(page: string, text: string): PageForm[] {
  return [...text.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map(([, action, body]) => {
    const fields: Record<string, string> = {};
    for (const [tag] of body!.matchAll(/<(input|select|textarea)\b[^>]*>/g)) {
      const name = /\bname="([^"]+)"/.exec(tag)?.[1];
      if (!name || name === 'csrf') continue;
      const value = tag.startsWith('<select')
        ? /<option value="([^"]*)"/.exec(body!.slice(body!.indexOf(tag)))?.[1]
        : /\bvalue="([^"]*)"/.exec(tag)?.[1];
      fields[name] = unescape(value || TYPED[name] || 'x');
    }
    return { page, action: unescape(action!), fields };
  });
}

/**
 * Forms bind their own named fields only: every dashboard form, posted with its own fields and
 * every field of every other dashboard form, is refused (400) and nothing stored for the merchant
 * changes. The forms are read from the pages as an owner sees them, so a new form is covered.
 */
describe('Merchant dashboard forms bind their own fields only (mass assignment)', function () {
  this.timeout(180_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Narmada Textiles')));

  const COLLECTIONS = [
    'merchants',
    'api_keys',
    'dashboard_users',
    'dashboard_invitations',
    'dashboard_sessions',
    'transactions',
    'payment_links',
    'payment_link_batches',
    'webhook_deliveries',
    'webhook_endpoints',
    'settlement_settings',
    'audit_records',
  ];
  /** Everything stored of the merchant: its own document and every document naming it. */
  async function stored() {
    const mid = merchant.merchantIdentifier;
    const out: Record<string, unknown[]> = {};
    for (const c of COLLECTIONS)
      out[c] = await gw.rt.store.db
        .collection<{ _id: string }>(c)
        .find({ $or: [{ _id: mid }, { merchantIdentifier: mid }] })
        .sort({ _id: 1 })
        .toArray();
    return out;
  }

  /** An owner's dashboard with every form on show: a second user, a paid order, key overlaps, a disabled endpoint, a delivery. */
  async function ownerWithEveryForm(): Promise<{ client: FormClient; forms: PageForm[] }> {
    const mid = merchant.merchantIdentifier;
    const { client } = await dashboardUser(gw, mid, 'owner');
    await dashboardUser(gw, mid, 'developer');
    const orderId = newOrderId('forms');
    await sandboxPay(gw, { merchantIdentifier: mid, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, mid, orderId);
    for (const [path, form] of [
      ['/dashboard/developers/secret-key/rotate', {}],
      ['/dashboard/developers/encryption-keys/rotate', {}],
      ['/dashboard/webhooks/settings', { webhookUrl: 'https://example.com/hook', webhookFormat: 'json' }],
    ] as const)
      assert.ok([200, 303].includes((await client.post(path, form)).status), path);
    await gw.rt.store.db
      .collection<{ _id: string }>('webhook_endpoints')
      .updateOne(
        { _id: mid },
        { $set: { disabled: true, disabledAt: gw.rt.now(), disabledReason: 'failing for 5 days' } },
        { upsert: true },
      );
    await gw.rt.store.db.collection<{ _id: string }>('webhook_deliveries').insertOne({
      _id: `webhook:${mid}:forms-${Date.now()}`,
      merchantIdentifier: mid,
      realtime: true,
      url: 'https://example.com/hook',
      contentType: 'application/json',
      body: '{}',
      state: 'failed',
      attempts: [],
      createdAt: gw.rt.now(),
    } as never);

    const pages = [
      '/dashboard',
      '/dashboard/account',
      '/dashboard/users',
      '/dashboard/developers',
      '/dashboard/webhooks',
      `/dashboard/transactions/${encodeURIComponent(orderId)}`,
      '/dashboard/links',
      '/dashboard/settlements/account',
    ];
    const forms: PageForm[] = [];
    for (const page of pages) {
      const res = await client.send(page);
      assert.equal(res.status, 200, page);
      for (const f of postForms(page, res.text))
        if (!forms.some((g) => g.action === f.action && JSON.stringify(g.fields) === JSON.stringify(f.fields))) forms.push(f);
    }
    return { client, forms };
  }

  it("each form posted with every other form's fields is refused (400) and nothing stored changes", async () => {
    const { client, forms } = await ownerWithEveryForm();
    const actions = forms.map((f) => f.action.replace(/\/(?:[^/]*%40[^/]*|[0-9a-f-]{8,}[^/]*|forms-[^/]*)(?=\/)/g, '/:id'));
    for (const expected of [
      '/dashboard/sign-out',
      '/dashboard/sign-out-everywhere',
      '/dashboard/users/invitations',
      '/dashboard/users/:id/role',
      '/dashboard/users/:id/remove',
      '/dashboard/developers/api-keys',
      '/dashboard/developers/secret-key/rotate',
      '/dashboard/developers/secret-key/revoke-previous',
      '/dashboard/developers/encryption-keys/rotate',
      '/dashboard/webhooks/settings',
      '/dashboard/webhooks/signing-secret/rotate',
      '/dashboard/webhooks/endpoint/enable',
      '/dashboard/webhooks/test',
      '/dashboard/links',
      '/dashboard/settlements/account',
    ])
      assert.ok(actions.includes(expected), `the pages offer ${expected} (found ${actions.join(', ')})`);
    for (const part of ['/revoke', '/retire', '/replay', '/refunds'])
      assert.ok(
        forms.some((f) => f.action.endsWith(part)),
        `a form ending ${part}`,
      );
    assert.equal(forms.filter((f) => f.action.endsWith('/refunds')).length, 2, 'refund part and refund all');

    const everyField: Record<string, string> = { ...UNSHOWN };
    for (const f of forms) for (const [k, v] of Object.entries(f.fields)) everyField[k] ??= v;
    const before = await stored();
    for (const form of forms) {
      const others = Object.fromEntries(Object.entries(everyField).filter(([k]) => !(k in form.fields)));
      assert.ok(Object.keys(others).length > 0, form.action);
      const res = await client.post(form.action, { ...others, ...form.fields });
      assert.equal(res.status, 400, `${form.action} with ${Object.keys(others).join(', ')}: ${res.text.slice(0, 300)}`);
      assert.match(res.text, /Unknown field|Unexpected field/, form.action);
      assert.deepEqual(await stored(), before, `${form.action}: nothing stored changed`);
    }
  });

  it("each form posted with any one field it does not show (another form's, or a setting no form shows) is refused (400), nothing stored changes", async () => {
    // One at a time: posted together, any field the handler's own schema refuses would hide one it
    // binds (the webhook settings form once passed defaultReturnUrl on into the merchant's settings,
    // whose schema refuses the other forms' fields).
    const { client, forms } = await ownerWithEveryForm();
    const everyField: Record<string, string> = { ...UNSHOWN };
    for (const f of forms) for (const [k, v] of Object.entries(f.fields)) everyField[k] ??= v;
    const before = await stored();
    for (const form of forms) {
      for (const [k, v] of Object.entries(everyField)) {
        if (k in form.fields) continue;
        const res = await client.post(form.action, { ...form.fields, [k]: v });
        assert.equal(res.status, 400, `${form.action} with ${k}: ${res.status} ${res.text.slice(0, 300)}`);
        assert.match(res.text, /Unknown field|Unexpected field/, `${form.action} with ${k}`);
      }
      assert.deepEqual(await stored(), before, `${form.action}: nothing stored changed`);
    }
  });

  it("the webhook settings form changes the merchant's four webhook settings and nothing else", async () => {
    const { client } = await dashboardUser(gw, merchant.merchantIdentifier, 'owner');
    const merchantDoc = async () =>
      (await gw.rt.store.db.collection<{ _id: string }>('merchants').findOne({ _id: merchant.merchantIdentifier })) as Record<
        string,
        unknown
      >;
    const before = await merchantDoc();
    const saved = await client.post('/dashboard/webhooks/settings', {
      webhookUrl: 'https://example.com/hook',
      webhookFormat: 'json',
      autoRefund: 'on',
      settlementWebhook: 'on',
    });
    assert.equal(saved.status, 303);
    const after = await merchantDoc();
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    // `version` counts every change of the merchant (replicas re-read it when it moves).
    assert.deepEqual(changed.sort(), ['autoRefund', 'settlementWebhook', 'version', 'webhookFormat', 'webhookUrl']);
  });
});
