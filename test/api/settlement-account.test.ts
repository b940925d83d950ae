import { strict as assert } from 'node:assert';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { SettlementAccountRepository } from '../../src/store/settlement-account-repository';
import { RUN_MASTER_KEY } from '../support/gateway';
import { settlementActivityDeps } from '../../src/main/settlement-runtime';
import { cliEnvFor, runCli, SPAWN_TIMEOUT_MS } from '../support/cli';
import { settlementAccountUseCases } from '../../src/usecases/settlement-account';
import { settlementAccountDeps } from '../../src/main/use-cases/settlement-deps';
import { BREAK_GLASS_NAME } from '../../src/domain/operator-token';

describe('Operator API: a merchant settlement account and its master merchant', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let auth: Record<string, string>;
  const accountUrl = (m: string) => `${gw.baseUrl}/ops/v1/merchants/${m}/settlement-account`;
  const masterUrl = (m: string) => `${gw.baseUrl}/ops/v1/merchants/${m}/master`;
  const ACCOUNT = { ifsc: 'HDFC0001234', accountNumber: '50100123456789', holderName: 'Acme Stores Pvt Ltd' };

  before(async () => {
    gw = await sharedGateway();
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });

  /** What a confirmation names, read from the pending change a view shows. */
  const namedIn = (v: { pendingChange: { proposedAt: string; accountLast4: string } | null } | null) => ({
    proposedAt: v!.pendingChange!.proposedAt,
    accountLast4: v!.pendingChange!.accountLast4,
  });

  const auditOf = async (m: string) =>
    (await request(`${gw.baseUrl}/ops/v1/audit?merchantIdentifier=${m}`, { headers: auth })).json.data.records as {
      action: string;
      actor: { name: string };
      from: string | null;
      detail: Record<string, unknown>;
    }[];

  it('PUT only proposes: the operator who proposed cannot confirm it, so one operator alone changes nothing', async () => {
    const m = await gw.newMerchant();
    const none = await request(accountUrl(m.merchantIdentifier), { headers: auth });
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.json, {
      success: true,
      data: { merchantIdentifier: m.merchantIdentifier, settlementAccount: null, pendingChange: null },
    });

    const put = await request(accountUrl(m.merchantIdentifier), { method: 'PUT', body: ACCOUNT, headers: auth });
    assert.equal(put.status, 202, put.text);
    assert.equal(put.json.data.settlementAccount, null, 'nothing is paid to a proposal');
    const pending = put.json.data.pendingChange;
    assert.equal(pending.accountNumberMasked, 'XXXXXXXXXX6789');
    assert.equal(pending.proposedBy, BREAK_GLASS_NAME, 'the ops token');
    assert.ok(!put.text.includes(ACCOUNT.accountNumber), 'the whole number is never answered');
    assert.deepEqual((await request(accountUrl(m.merchantIdentifier), { headers: auth })).json, put.json);

    const self = await request(`${accountUrl(m.merchantIdentifier)}/confirm`, {
      method: 'POST',
      body: namedIn(put.json.data),
      headers: auth,
    });
    assert.equal(self.status, 409, self.text);
    assert.equal(self.json.message.code, '2068');
    const payouts = {} as Parameters<typeof settlementActivityDeps>[1];
    assert.equal(await settlementActivityDeps(gw.rt, payouts).settlementAccount(m.merchantIdentifier), null, 'still no account');
    const proposed = (await auditOf(m.merchantIdentifier)).filter((r) => r.action === 'settlement_account.proposed');
    assert.equal(proposed.length, 1);
    assert.deepEqual(proposed[0]!.detail, { accountLast4: '6789' });
    assert.ok(proposed[0]!.from);
    assert.ok(!(await auditOf(m.merchantIdentifier)).some((r) => r.action === 'settlement_account.changed'));

    const noneWaiting = await request(`${accountUrl((await gw.newMerchant()).merchantIdentifier)}/confirm`, {
      method: 'POST',
      body: namedIn(put.json.data),
      headers: auth,
    });
    assert.equal(noneWaiting.status, 404);
    assert.equal(noneWaiting.json.message.code, '2067');
  });

  it('a second, different operator confirms: the account is stored sealed, answered masked, read by the payout', async () => {
    const m = await gw.newMerchant();
    const accounts = settlementAccountUseCases(settlementAccountDeps(gw.rt));
    const asOperator = (name: string) => ({ actor: { kind: 'operator' as const, name }, from: '127.0.0.1' });
    const named = namedIn(await accounts.propose(m.merchantIdentifier, ACCOUNT, asOperator('asha')));
    assert.equal(await accounts.confirm(m.merchantIdentifier, named, asOperator('asha')), 'sameOperator');
    const confirmed = await accounts.confirm(m.merchantIdentifier, named, asOperator('ravi'));
    assert.ok(typeof confirmed === 'object');
    const shown = confirmed.settlementAccount!;
    assert.equal(shown.ifsc, 'HDFC0001234');
    assert.equal(shown.accountLast4, '6789');
    assert.equal(shown.accountNumberMasked, 'XXXXXXXXXX6789');
    assert.equal(shown.holderName, 'Acme Stores Pvt Ltd');
    assert.equal(shown.changedBy, 'operators asha + ravi');
    assert.equal(shown.coolingUntil, null, 'a first account does not cool');
    assert.equal(confirmed.pendingChange, null);
    assert.equal(await accounts.confirm(m.merchantIdentifier, named, asOperator('mira')), 'noProposal', 'applied once');

    const get = await request(accountUrl(m.merchantIdentifier), { headers: auth });
    assert.deepEqual(get.json.data, confirmed);
    const changed = (await auditOf(m.merchantIdentifier)).filter((r) => r.action === 'settlement_account.changed');
    assert.equal(changed.length, 1);
    assert.equal(changed[0]!.actor.name, 'ravi');
    assert.equal(changed[0]!.detail.proposedBy, 'asha');
    assert.equal(changed[0]!.detail.accountLast4, '6789');

    // At rest: sealed, never the clear number; the reader the settlement engine takes opens it.
    const doc = await gw.rt.store.db.collection('merchants').findOne({ _id: m.merchantIdentifier as never });
    assert.ok(!JSON.stringify(doc).includes(ACCOUNT.accountNumber), 'the account number is not stored in clear');
    assert.match(doc!.settlementAccount.accountNumberSealed, /^pd1\./);
    const reader = new SettlementAccountRepository(gw.rt.store.db, RUN_MASTER_KEY);
    assert.deepEqual(await reader.read(m.merchantIdentifier), { ...ACCOUNT, coolingUntil: null });
    const payouts = {} as Parameters<typeof settlementActivityDeps>[1];
    assert.deepEqual(await settlementActivityDeps(gw.rt, payouts).settlementAccount(m.merchantIdentifier), {
      ...ACCOUNT,
      coolingUntil: null,
    });

    // A replacement cools: payouts to it wait SETTLEMENT_ACCOUNT_COOLING_HOURS.
    const next = await accounts.propose(
      m.merchantIdentifier,
      { ...ACCOUNT, accountNumber: '60200012340000' },
      asOperator('ravi'),
    );
    const replaced = await accounts.confirm(m.merchantIdentifier, namedIn(next), asOperator('asha'));
    assert.ok(typeof replaced === 'object');
    const hours =
      (Date.parse(replaced.settlementAccount!.coolingUntil!) - Date.parse(replaced.settlementAccount!.updatedAt)) / 3_600_000;
    assert.equal(hours, gw.rt.config.settlements.accountCoolingHours);

    // A sealed number copied onto another merchant does not open there.
    const other = await gw.newMerchant();
    await gw.rt.store.db
      .collection('merchants')
      .updateOne({ _id: other.merchantIdentifier as never }, { $set: { settlementAccount: doc!.settlementAccount } });
    await assert.rejects(reader.read(other.merchantIdentifier));
  });

  it('a confirmation applies only the change it names: one put in its place meanwhile is refused (409 2068), changing nothing', async () => {
    const m = await gw.newMerchant();
    const accounts = settlementAccountUseCases(settlementAccountDeps(gw.rt));
    const asOperator = (name: string) => ({ actor: { kind: 'operator' as const, name }, from: null });
    await accounts.propose(m.merchantIdentifier, { ...ACCOUNT, accountNumber: '50100012340000' }, asOperator('asha'));
    const seen = namedIn((await request(accountUrl(m.merchantIdentifier), { headers: auth })).json.data);
    assert.equal(seen.accountLast4, '0000');
    await accounts.propose(m.merchantIdentifier, { ...ACCOUNT, accountNumber: '99990000001122' }, asOperator('mallory'));
    const confirm = (body: object | undefined) =>
      request(`${accountUrl(m.merchantIdentifier)}/confirm`, { method: 'POST', body, headers: auth });
    const refused = await confirm(seen);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.json.message.code, '2068');
    const after = (await request(accountUrl(m.merchantIdentifier), { headers: auth })).json.data;
    assert.equal(after.settlementAccount, null, 'nothing applied');
    assert.equal(after.pendingChange.accountLast4, '1122');
    assert.equal((await confirm({ ...namedIn(after), accountLast4: '0000' })).status, 409, 'both must match');
    for (const bad of [
      {},
      { proposedAt: after.pendingChange.proposedAt },
      { ...namedIn(after), extra: 1 },
      { ...namedIn(after), proposedAt: 'yesterday' },
    ]) {
      const res = await confirm(bad);
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
      assert.equal(res.json.message.code, '2002');
    }
    assert.equal((await confirm(undefined)).status, 415, 'no body names nothing');
    assert.equal((await request(accountUrl(m.merchantIdentifier), { headers: auth })).json.data.settlementAccount, null);
    const applied = await confirm(namedIn(after));
    assert.equal(applied.status, 200, applied.text);
    assert.equal(applied.json.data.settlementAccount.accountLast4, '1122');
  });

  it("a proposal lapses after 24 hours (confirming it: 404 2067), and an owner's change drops a pending one", async () => {
    const m = await gw.newMerchant();
    const asOperator = (name: string) => ({ actor: { kind: 'operator' as const, name }, from: null });
    const dayAgo = settlementAccountUseCases(
      settlementAccountDeps({ ...gw.rt, now: () => new Date(Date.now() - 24 * 3_600_000 - 1_000) }),
    );
    const old = namedIn(await dayAgo.propose(m.merchantIdentifier, ACCOUNT, asOperator('asha')));
    const shown = await request(accountUrl(m.merchantIdentifier), { headers: auth });
    assert.equal(shown.json.data.pendingChange, null, 'a lapsed proposal is not shown');
    const late = await request(`${accountUrl(m.merchantIdentifier)}/confirm`, { method: 'POST', body: old, headers: auth });
    assert.equal(late.status, 404, late.text);
    assert.equal(late.json.message.code, '2067');
    assert.equal((await request(accountUrl(m.merchantIdentifier), { headers: auth })).json.data.settlementAccount, null);

    const accounts = settlementAccountUseCases(settlementAccountDeps(gw.rt));
    const live = namedIn(await accounts.propose(m.merchantIdentifier, ACCOUNT, asOperator('asha')));
    const owner = { actor: { kind: 'staff' as const, email: 'owner@example.com' }, from: null };
    await accounts.changeByOwner(m.merchantIdentifier, { ...ACCOUNT, accountNumber: '70700012345555' }, owner);
    assert.equal((await accounts.view(m.merchantIdentifier)).pendingChange, null);
    assert.equal(await accounts.confirm(m.merchantIdentifier, live, asOperator('ravi')), 'noProposal');
    const doc = await gw.rt.store.db.collection('merchants').findOne({ _id: m.merchantIdentifier as never });
    assert.equal(doc!.settlementAccountProposal, undefined);
    assert.equal(doc!.settlementAccount.accountLast4, '5555');
  });

  it('refuses a bad IFSC, account number or holder with 400 (2002), changing nothing', async () => {
    const m = await gw.newMerchant();
    const bad = [
      { ...ACCOUNT, ifsc: 'HDFC1001234' }, // fifth character must be 0
      { ...ACCOUNT, ifsc: 'hdfc0001234' },
      { ...ACCOUNT, ifsc: 'HDF00001234' },
      { ...ACCOUNT, ifsc: 'HDFC000123' },
      { ...ACCOUNT, accountNumber: '12345678' }, // 8 digits
      { ...ACCOUNT, accountNumber: '1234567890123456789' }, // 19
      { ...ACCOUNT, accountNumber: '12345678901a' },
      { ...ACCOUNT, holderName: ' Acme' },
      { ...ACCOUNT, extra: 1 },
      { ifsc: ACCOUNT.ifsc },
    ];
    for (const body of bad) {
      const res = await request(accountUrl(m.merchantIdentifier), { method: 'PUT', body, headers: auth });
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.json.message.code, '2002');
    }
    for (const ok of ['123456789', '123456789012345678']) {
      const res = await request(accountUrl(m.merchantIdentifier), {
        method: 'PUT',
        body: { ...ACCOUNT, accountNumber: ok },
        headers: auth,
      });
      assert.equal(res.status, 202, res.text);
    }
    const malformed = await request(accountUrl(m.merchantIdentifier), { method: 'PUT', body: '{"ifsc":', headers: auth });
    assert.equal(malformed.status, 400);
  });

  it('needs the operator token, and an unknown merchant is 404 (2042)', async () => {
    const m = await gw.newMerchant();
    const noToken = await request(accountUrl(m.merchantIdentifier), { method: 'PUT', body: ACCOUNT });
    assert.equal(noToken.status, 401);
    const unknown = await request(accountUrl('nosuchmerchant1'), { method: 'PUT', body: ACCOUNT, headers: auth });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.message.code, '2042');
    assert.equal((await request(accountUrl('nosuchmerchant1'), { headers: auth })).status, 404);
  });

  it('PUT /master links a sub-merchant to a master, unlinks with null, and refuses impossible links', async () => {
    const master = await gw.newMerchant('Marketplace');
    const sub = await gw.newMerchant('Seller');
    const linked = await request(masterUrl(sub.merchantIdentifier), {
      method: 'PUT',
      body: { masterMerchantIdentifier: master.merchantIdentifier },
      headers: auth,
    });
    assert.equal(linked.status, 200, linked.text);
    assert.deepEqual(linked.json.data, {
      merchantIdentifier: sub.merchantIdentifier,
      masterMerchantIdentifier: master.merchantIdentifier,
      customIdentifier: null,
    });
    const doc = await gw.rt.store.db.collection('merchants').findOne({ _id: sub.merchantIdentifier as never });
    assert.equal(doc!.masterMerchantIdentifier, master.merchantIdentifier);

    const refusals: [string, object, number][] = [
      [sub.merchantIdentifier, { masterMerchantIdentifier: sub.merchantIdentifier }, 409], // itself
      [sub.merchantIdentifier, { masterMerchantIdentifier: 'nosuchmerchant1' }, 404],
      [master.merchantIdentifier, { masterMerchantIdentifier: sub.merchantIdentifier }, 409], // a sub cannot be a master
      ['nosuchmerchant1', { masterMerchantIdentifier: master.merchantIdentifier }, 404],
      [sub.merchantIdentifier, {}, 400],
    ];
    for (const [m, body, status] of refusals) {
      const res = await request(masterUrl(m), { method: 'PUT', body, headers: auth });
      assert.equal(res.status, status, `${m} ${JSON.stringify(body)}: ${res.text}`);
    }
    const unlinked = await request(masterUrl(sub.merchantIdentifier), {
      method: 'PUT',
      body: { masterMerchantIdentifier: null },
      headers: auth,
    });
    assert.equal(unlinked.status, 200);
    const after = await gw.rt.store.db.collection('merchants').findOne({ _id: sub.merchantIdentifier as never });
    assert.equal(after!.masterMerchantIdentifier, undefined);
  });

  it('the CLI proposes and shows the account, refuses its own confirmation and links a sub-merchant through the same ops API', async function () {
    this.timeout(4 * SPAWN_TIMEOUT_MS);
    const env = cliEnvFor(gw);
    const json = async (...args: string[]) => {
      const run = await runCli(args, env);
      assert.equal(run.code, 0, run.stderr);
      return JSON.parse(run.stdout);
    };
    const m = await gw.newMerchant('CLI seller');
    const master = await gw.newMerchant('CLI market');
    const set = await json(
      'settlement-account',
      'set',
      m.merchantIdentifier,
      '--ifsc',
      'SBIN0000123',
      '--account-number',
      '123456789012',
      '--holder-name',
      'CLI Seller',
    );
    assert.equal(set.pendingChange.accountNumberMasked, 'XXXXXXXX9012');
    const shown = await json('settlement-account', 'show', m.merchantIdentifier);
    assert.deepEqual(shown, set);
    const unnamed = await runCli(['settlement-account', 'confirm', m.merchantIdentifier], env);
    assert.notEqual(unnamed.code, 0, 'a confirmation names what it confirms');
    assert.match(unnamed.stderr, /--proposed-at/);
    const selfConfirmed = await runCli(
      [
        'settlement-account',
        'confirm',
        m.merchantIdentifier,
        '--proposed-at',
        set.pendingChange.proposedAt,
        '--account-last4',
        set.pendingChange.accountLast4,
      ],
      env,
    );
    assert.notEqual(selfConfirmed.code, 0, 'the proposing operator cannot confirm');
    assert.match(selfConfirmed.stderr, /2068/);
    const early = await runCli(['settlement-account', 'confirm-early', m.merchantIdentifier, '--account-last4', '9012'], env);
    assert.notEqual(early.code, 0, 'nothing cools');
    assert.match(early.stderr, /2068/);
    const refused = await runCli(
      [
        'settlement-account',
        'set',
        m.merchantIdentifier,
        '--ifsc',
        'SBIN1000123',
        '--account-number',
        '123456789012',
        '--holder-name',
        'X',
      ],
      env,
    );
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /--ifsc/);
    const linked = await json('link-master', m.merchantIdentifier, '--master', master.merchantIdentifier);
    assert.deepEqual(linked, {
      merchantIdentifier: m.merchantIdentifier,
      masterMerchantIdentifier: master.merchantIdentifier,
      customIdentifier: null,
    });
    const unlinked = await json('link-master', m.merchantIdentifier, '--master', '');
    assert.equal(unlinked.masterMerchantIdentifier, null);
  });
});
