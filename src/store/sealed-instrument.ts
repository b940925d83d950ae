import type { PaymentInstrument, ShownInstrument } from '../domain/instrument';
import type { PayerDataCipher, PayerFieldContext } from '../domain/payer-data';

/** The fields of each instrument kind that identify the payer: sealed together at rest. */
const PAYER_FIELDS: Partial<Record<PaymentInstrument['kind'], readonly string[]>> = {
  UPI: ['vpa'],
  UPI_MANDATE: ['vpa'],
  CARD: ['cardToken', 'cardId'],
};

/**
 * An instrument as stored: its payer fields replaced by `sealed` (their JSON, encrypted for this
 * order) and `payerHash` (the keyed hash of the VPA, or of the card id, for lookups); or, stored
 * before payer data was encrypted, the instrument as it was (read as is, rewritten at start-up).
 */
export type StoredInstrument = PaymentInstrument | SealedInstrument;
interface SealedInstrument {
  kind: PaymentInstrument['kind'];
  sealed: string;
  payerHash: string;
  [other: string]: unknown;
}

const FIELD = 'instrument';
const context = (order: { merchantIdentifier: string; orderId: string }): PayerFieldContext => ({
  merchantIdentifier: order.merchantIdentifier,
  field: FIELD,
  documentId: `${order.merchantIdentifier}:${order.orderId}`,
});

/** Whether a stored instrument still holds payer data in clear (stored before encryption). */
export const holdsPayerDataInClear = (i: StoredInstrument): boolean => !('sealed' in i) && PAYER_FIELDS[i.kind] !== undefined;

export function sealInstrument(
  cipher: PayerDataCipher,
  order: { merchantIdentifier: string; orderId: string },
  instrument: PaymentInstrument,
): StoredInstrument {
  const fields = PAYER_FIELDS[instrument.kind];
  if (!fields) return instrument;
  const payer: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(instrument)) (fields.includes(k) ? payer : rest)[k] = v;
  return {
    ...rest,
    kind: instrument.kind,
    sealed: cipher.seal(JSON.stringify(payer), context(order)),
    payerHash:
      payer.vpa !== undefined
        ? cipher.lookupHash(order.merchantIdentifier, 'vpa', payer.vpa as string)
        : cipher.lookupHash(order.merchantIdentifier, 'cardId', payer.cardId as string),
  };
}

/** The instrument as the rest of the gateway knows it; throws if sealed for another order. */
export function openInstrument(
  cipher: PayerDataCipher,
  order: { merchantIdentifier: string; orderId: string },
  stored: StoredInstrument,
): PaymentInstrument {
  if (typeof stored !== 'object' || stored === null || !('sealed' in stored)) return stored;
  const { sealed, payerHash: _hash, ...rest } = stored;
  return { ...rest, ...(JSON.parse(cipher.open(sealed, context(order))) as object) } as PaymentInstrument;
}

/** What the status API shows of a stored instrument: a card opened, any other kind as its kind alone (nothing opened). */
export function openShownInstrument(
  cipher: PayerDataCipher,
  order: { merchantIdentifier: string; orderId: string },
  stored: StoredInstrument,
): ShownInstrument {
  return stored.kind === 'CARD' ? openInstrument(cipher, order, stored) : { kind: stored.kind };
}
