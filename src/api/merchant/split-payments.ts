import { checksumMatches } from '../../domain/checksum';
import type { Merchant } from '../../domain/merchant';
import { namedMerchant, SplitCodes, splitRequestSchema, splitShares, type SplitCode } from '../../domain/split';
import { splitFailure } from '../envelope';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { defineOperation, Refusal, type AuthScheme } from '../operation';
import { splitReference } from './settlements-openapi';

/** Zaakpay's answer code as a refusal; an unknown master or a wrong checksum counts as a failed authentication. */
function coded(code: SplitCode, detail?: string): Refusal {
  const c = SplitCodes[code];
  const authentication = code === 'merchantUnknown' || code === 'checksumMismatch';
  return new Refusal(c.code, detail ? `${c.description}: ${detail}` : c.description, 200, authentication);
}

const fieldsOf = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/** The order id as sent, echoed in every answer once the body is read. */
const orderIdOf = (body: unknown): string | null => {
  const orderId = fieldsOf(body).orderId;
  return typeof orderId === 'string' ? orderId : null;
};

/**
 * Header `zaakchecksum` = HMAC-SHA256 (hex) of the exact body under the master merchant's keys in
 * force; the master is the merchant `masterMerchantIdentifier` names.
 */
const zaakChecksumOfMaster: AuthScheme<Merchant> = {
  security: [{ zaakChecksum: [] }],
  bodySignature: 'zaakchecksumHeader',
  from: 'body',
  async authenticate(ctx, deps, { raw, parsed }) {
    const masterEntry = fieldsOf(parsed).masterMerchantIdentifier;
    const masterName = typeof masterEntry === 'object' && masterEntry !== null ? namedMerchant(masterEntry) : null;
    const master = masterName ? await deps.useCases.shared.findMerchant(masterName) : null;
    if (!master) return coded('merchantUnknown');
    const presented = ctx.get('zaakchecksum');
    if (
      !(await verifiedWithKeysInForce(deps.useCases.shared, master, deps.now(), (keys) => checksumMatches(keys, raw, presented)))
    )
      return coded('checksumMismatch');
    return master;
  },
  limitKey: (master) => master.merchantIdentifier,
};

/**
 * Zaakpay's Split Payment API: the master merchant's paid order split once among it and its linked
 * sub-merchants. Every answer is HTTP 200 with its code, `{status, errorCode, errorDescription, orderId}`,
 * as Zaakpay answers.
 */
export const splitOperation = defineOperation({
  method: 'post',
  path: '/api/v1/splitTxnByAmount',
  envelope: 'split',
  auth: zaakChecksumOfMaster,
  body: {
    contentType: 'application/json',
    schema: splitRequestSchema,
    invalid: ([issue]) => coded('requestInvalid', `${issue.path.join('.') || 'body'}: ${issue.message}`),
  },
  limit: 'split',
  reference: splitReference,
  refusalBody: (refusal, parsed) => splitFailure(refusal.code, refusal.text, orderIdOf(parsed)),
  async handle({ caller: master, body, parsed }, deps) {
    const naming = await deps.useCases.merchant.subMerchantNaming(master.merchantIdentifier, body);
    if ('refused' in naming) return coded(naming.refused, naming.detail);
    const shares = splitShares(master.merchantIdentifier, body, naming.nameOf);
    if ('refused' in shares) return coded(shares.refused, shares.detail);
    const result = await deps.useCases.merchant.splitOrder(master.merchantIdentifier, shares);
    if (result !== 'recorded') return coded(result);
    const orderId = orderIdOf(parsed);
    deps.logger.info({ merchantIdentifier: master.merchantIdentifier, orderId, shares: shares.shares.length }, 'order split');
    const c = SplitCodes.recorded;
    return { status: 'SUCCESS', errorCode: c.code, errorDescription: c.description, orderId };
  },
});
