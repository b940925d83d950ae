import escapeHtml from 'escape-html';
import { formatRupees } from '../../domain/money';
import { SANDBOX_CARDS, SANDBOX_NETBANKING } from '../../domain/sandbox-bank';
import type { BankInstrument } from '../protocol';

/**
 * The simulated bank's own pages: where a card payer types the card (3-D Secure style) and a net
 * banking payer approves at the bank. Card numbers are typed here, on the bank's page, never on a
 * page of the gateway.
 */
const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Sandbox Bank</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
header{border-bottom:3px solid #0b5394;margin-bottom:1.5rem}h1{font-size:1.3rem}label{display:block;margin:.8rem 0 .3rem}
input{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}button{font-size:1rem;padding:.5rem 1rem;margin:1rem .5rem 0 0}
small{color:#555}</style></head>
<body><header><p><strong>Sandbox Bank</strong> · simulated acquirer, test instruments only</p></header>${body}</body></html>`;

export function bankPage(p: { txnId: string; amountPaise: number; instrument: BankInstrument }): string {
  const action = `/pages/pay/${encodeURIComponent(p.txnId)}`;
  if (p.instrument.type === 'CARD') {
    const cards = Object.entries(SANDBOX_CARDS)
      .map(([pan, c]) => `<li><code>${pan}</code>: ${c.behaviour === 'pay' ? 'approved' : 'declined'}</li>`)
      .join('');
    return layout(
      'Card authentication',
      `<h1>Pay ${formatRupees(p.amountPaise)} by card</h1>
<form method="post" action="${escapeHtml(action)}">
<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required>
<button type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</form><p><small>Test cards:</small></p><ul>${cards}</ul><p><small>Reference ${escapeHtml(p.txnId)}</small></p>`,
    );
  }
  const bank = p.instrument.type === 'NETBANKING' ? p.instrument.bankCode : '';
  const known = SANDBOX_NETBANKING[bank];
  return layout(
    'Net banking',
    `<h1>Pay ${formatRupees(p.amountPaise)} from your ${escapeHtml(known?.bankName ?? bank)} account</h1>
<form method="post" action="${escapeHtml(action)}">
<button type="submit" name="action" value="pay">Approve</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form><p><small>Bank code ${escapeHtml(bank)}: ${known?.behaviour === 'pay' ? 'approves' : 'declines'} in the sandbox. Reference ${escapeHtml(p.txnId)}</small></p>`,
  );
}

export function resultPage(title: string, detail: string, returnUrl?: string): string {
  const back = returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">Return to the merchant</a></p>` : '';
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>${back}`);
}
