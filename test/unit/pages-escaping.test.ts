import { strict as assert } from 'node:assert';
import type { Merchant } from '../../src/domain/merchant';
import { checkoutRefusedPage } from '../../src/api/pages/checkout-page';
import { dashboardPage, type DashboardViewer } from '../../src/api/pages/dashboard-layout';
import { html } from '../../src/api/pages/html';
import { webhooksPage } from '../../src/api/pages/dashboard-webhooks-page';

const hostile = '<img src=x onerror="alert(1)">';
const escaped = '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;';

const viewer: DashboardViewer = {
  email: 'owner@example.com',
  role: 'owner',
  merchantName: hostile,
  merchantIdentifier: 'm1',
  csrf: 'c"srf',
};

describe('pages escape what they show, by default', () => {
  it('the dashboard frame escapes the merchant name and attribute values once', () => {
    const page = dashboardPage('Title', viewer, html`<p>body</p>`, { current: 'overview', notice: hostile });
    assert.ok(!page.includes(hostile), 'no raw markup from the merchant');
    assert.ok(page.includes(`<strong>${escaped}</strong>`));
    assert.ok(page.includes('<p class="notice" role="status" id="notice">' + escaped + '</p>'));
    assert.ok(page.includes('name="csrf" value="c&quot;srf"'));
    assert.ok(page.includes('<p>body</p>'), 'the body, markup of our own, is inserted as it is');
    assert.ok(!page.includes('&amp;lt;'), 'nothing escaped twice');
  });

  it('a refused checkout shows the refusal text as text', () => {
    const page = checkoutRefusedPage('109', hostile);
    assert.ok(page.includes(`<span id="reason">${escaped}</span>`));
  });

  it("the webhook delivery log escapes an attempt's error (it was inserted raw before)", () => {
    const page = webhooksPage(viewer, {
      merchant: { webhookUrl: 'https://shop.example/hook', webhookFormat: 'form', autoRefund: false } as Merchant,
      secrets: [],
      health: {
        merchantIdentifier: 'm1',
        state: 'enabled',
        disabledAt: null,
        disabledReason: null,
        failingSince: null,
        lastSuccessAt: null,
        lastFailureAt: null,
        attempts: 2,
        successes: 0,
      },
      deliveries: [
        {
          _id: 'd1',
          merchantIdentifier: 'm1',
          realtime: true,
          url: 'https://shop.example/hook',
          contentType: 'application/x-www-form-urlencoded',
          state: 'failed',
          createdAt: new Date('2026-01-01T00:00:00Z'),
          attempts: [
            { attempt: 1, at: new Date('2026-01-01T00:00:00Z'), httpStatus: null, response: null, error: hostile, durationMs: 5 },
            { attempt: 2, at: new Date('2026-01-01T00:01:00Z'), httpStatus: 500, response: null, error: null, durationMs: 5 },
          ],
        },
      ],
    });
    assert.ok(!page.includes(hostile));
    assert.ok(page.includes(`<td>#1 2026-01-01 05:30:00 IST: ${escaped}<br>#2 2026-01-01 05:31:00 IST: HTTP 500</td>`));
  });
});
