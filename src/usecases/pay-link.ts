import type { PaymentInstrument } from '../domain/instrument';
import type { PaymentLink } from '../store/payment-link-repository';
import { offerPayer } from './pay-qr';
import { ensurePaymentWorkflow, type StartPaymentDeps } from './start-payment';

/**
 * A payer pays a link on its page. The link's order waits for one payer in its payment workflow,
 * which takes the first and refuses every other (two payers at the same moment never both pay).
 * The workflow is started first if the background start after creation has not happened yet.
 */
export async function payLink(
  deps: StartPaymentDeps,
  link: PaymentLink,
  payer: PaymentInstrument,
): Promise<'accepted' | 'notOpen'> {
  const t = await deps.transactions.findByOrder(link);
  if (!t || t.status !== 'Pending' || t.instrument.kind !== 'PAYMENT_LINK') return 'notOpen';
  if (t.payerDeadline && t.payerDeadline.getTime() <= deps.now().getTime()) return 'notOpen';
  await ensurePaymentWorkflow(deps, t);
  return (await offerPayer(deps.temporal, link, payer)) ? 'accepted' : 'notOpen';
}
