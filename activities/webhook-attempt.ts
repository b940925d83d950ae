import { parseRetryAfter } from '../src/domain/retry-after';
import { standardWebhookHeaders } from '../src/domain/standard-webhooks';
import { isWebhookAcknowledged, signedAttemptBody } from '../src/domain/webhook';
import { ENDPOINT_DISABLED } from '../src/store/webhook-endpoint-repository';
import { policyLookup } from '../src/outbound/checked-address';
import { postCheckedWebhook } from '../src/outbound/webhook-post';
import type { AddressPolicy } from '../src/domain/network-address';
import type { DeliveryOrderEvent } from '../src/domain/webhook-delivery';
import type { MerchantRepository } from '../src/store/merchant-repository';
import type { TransactionRepository } from '../src/store/transaction-repository';
import type { WebhookRepository } from '../src/store/webhook-repository';
import type { WebhookEndpointRepository } from '../src/store/webhook-endpoint-repository';
import type { EndpointHealthBuffer } from '../src/store/webhook-endpoint-buffer';
import { supersedingChange } from './webhook-supersession';

const RESPONSE_KEPT_BYTES = 512;

/** What an attempt needs (part of WebhookActivityDeps). */
export interface WebhookAttemptDeps {
  merchants: MerchantRepository;
  webhooks: WebhookRepository;
  /** The order's latest changes, read before each attempt of a call that reports one (webhook-supersession.ts). */
  transactions: Pick<TransactionRepository, 'outcomeSeqs'>;
  /** Endpoint health per merchant: disabled after WEBHOOK_ENDPOINT_DISABLE_AFTER of failures or on 410. */
  webhookEndpoints: WebhookEndpointRepository;
  /** The same health as this worker counts it, written every second (and a failed attempt at once). */
  webhookEndpointHealth: EndpointHealthBuffer;
  webhookAddressPolicy: AddressPolicy;
  /** How long an attempt waits for an answer (WEBHOOK_ATTEMPT_TIMEOUT_SECONDS, at most 15 s). */
  webhookAttemptTimeoutMs: number;
  now: () => Date;
}

/** What one attempt came to, as the delivery workflow reads it. */
export interface AttemptOutcome {
  acknowledged: boolean;
  /** The endpoint is disabled (now or before): the delivery is failed, nothing more is sent. */
  endpointDisabled?: true;
  /** A 429 or 503 with Retry-After: how long the receiver asked to wait (ms). */
  retryAfterMs?: number;
  /** Not sent: the order had a later outcome; the delivery is superseded, nothing more is sent. */
  superseded?: true;
}

/** The reads an attempt needs before it sends (beginAttempt). */
export interface AttemptReads {
  signer: Promise<{ merchant: { secretKey: string }; secrets: { secret: string }[] } | null>;
  disabled: Promise<boolean>;
}

export interface AttemptInput {
  deliveryId: string;
  attempt: number;
  url: string;
  contentType: string;
  body: string;
  /** Whose signing secrets sign the attempt; absent (deliveries started before): read from the store. */
  merchantIdentifier?: string;
}

/** One webhook attempt (sign, POST, log, count), shared by the first attempt and the delivery workflow's. */
export function createWebhookAttempt(deps: WebhookAttemptDeps) {
  const checkedLookup = policyLookup(deps.webhookAddressPolicy);

  /**
   * What an attempt reads before it sends, started at once so the reads overlap each other (and
   * whatever the caller reads meanwhile): the merchant's document (the key and signing secrets in
   * force now, signed at each attempt so a rotation reaches retries and replays) and the endpoint's
   * disabled flag, unless this worker learnt in the last two seconds that it is enabled.
   */
  function beginAttempt(merchantIdentifier: string | undefined): AttemptReads {
    if (!merchantIdentifier) return { signer: Promise.resolve(null), disabled: Promise.resolve(false) };
    const reads = {
      signer: deps.merchants.webhookSigner(merchantIdentifier, deps.now()),
      disabled: deps.webhookEndpointHealth.knownEnabled(merchantIdentifier)
        ? Promise.resolve(false)
        : deps.webhookEndpoints.isDisabled(merchantIdentifier),
    };
    // Awaited by the attempt; a caller that decides not to send leaves them unread, never unhandled.
    reads.signer.catch(() => undefined);
    reads.disabled.catch(() => undefined);
    return reads;
  }

  /**
   * One attempt of a delivery the caller has just read as not delivered: its sequential store round
   * trips are the reads of beginAttempt (overlapping) and the attempt logged after the POST; the
   * endpoint's health is written with the merchant's other attempts of the second (a failure at once).
   */
  async function attempt(
    input: AttemptInput,
    merchantIdentifier: string | undefined,
    reads: AttemptReads,
    stored: { attemptsLogged: number; orderEvent?: DeliveryOrderEvent },
  ): Promise<AttemptOutcome> {
    const untold = input.attempt === 1 && stored.attemptsLogged === 0;
    const [disabledNow, signer, supersededBy] = await Promise.all([
      reads.disabled,
      reads.signer,
      merchantIdentifier ? supersedingChange(deps.transactions, merchantIdentifier, stored.orderEvent, untold) : null,
    ]);
    // A stale outcome is never sent after a newer one: the delivery ends, superseded (kept in the log).
    if (supersededBy !== null) {
      if (await deps.webhooks.supersede(input.deliveryId, supersededBy)) return { acknowledged: false, superseded: true };
      // No longer pending: an attempt running beside this one ended it; one that was acknowledged stands.
      const ended = (await deps.webhooks.findSummary(input.deliveryId))?.state;
      return ended === 'delivered' ? { acknowledged: true } : { acknowledged: false, superseded: true };
    }
    const at = deps.now();
    // A call due while the endpoint is disabled is not sent: the delivery is kept, failed, for a replay.
    if (disabledNow) {
      await deps.webhooks.finish(input.deliveryId, 'failed', ENDPOINT_DISABLED);
      return { acknowledged: false, endpointDisabled: true };
    }
    // The contract checksum over the same txnData bytes, and the Standard Webhooks headers.
    const body = signer ? signedAttemptBody(input.body, input.contentType, signer.merchant.secretKey) : input.body;
    const signed = standardWebhookHeaders(
      (signer?.secrets ?? []).map((s) => s.secret),
      input.deliveryId,
      at,
      body,
    );
    const started = Date.now();
    const result = await postCheckedWebhook(
      { ...input, body },
      signed,
      deps.webhookAddressPolicy,
      deps.webhookAttemptTimeoutMs,
      checkedLookup,
    );
    const acknowledged = result.status !== null && isWebhookAcknowledged(result.status, result.text ?? '');
    const durationMs = Date.now() - started;
    // The attempt logged and (a failure, at once) the endpoint's health, side by side.
    const [, health] = await Promise.all([
      deps.webhooks.recordAttempt(input.deliveryId, acknowledged, {
        attempt: input.attempt,
        at,
        httpStatus: result.status,
        response: result.text === null ? null : Buffer.from(result.text).subarray(0, RESPONSE_KEPT_BYTES).toString(),
        error: 'error' in result ? result.error : acknowledged ? null : 'not acknowledged with SUCCESS',
        durationMs,
      }),
      merchantIdentifier
        ? deps.webhookEndpointHealth.record({ merchantIdentifier, acknowledged, at, httpStatus: result.status, durationMs })
        : null,
    ]);
    if (!health) return { acknowledged };
    const { disabled } = health;
    if (disabled) {
      // The endpoint is disabled now (by this attempt): its delivery stops here, failed, kept for a replay.
      await deps.webhooks.finish(input.deliveryId, 'failed', ENDPOINT_DISABLED);
      return { acknowledged: false, endpointDisabled: true };
    }
    const retryAfterMs =
      !acknowledged && (result.status === 429 || result.status === 503) && 'retryAfter' in result
        ? parseRetryAfter(result.retryAfter, at)
        : null;
    return retryAfterMs === null ? { acknowledged } : { acknowledged, retryAfterMs };
  }

  return { beginAttempt, attempt };
}
