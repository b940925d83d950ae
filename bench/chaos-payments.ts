/**
 * The chaos run's payments: a mix of sandbox instruments and amounts whose outcome is known in
 * advance (the sandbox table of docs/testers/README.md, written out here independently of the gateway's code), and
 * the HTTP calls a sandbox payer and a retrying merchant make.
 */
import { randomBytes, randomInt } from 'node:crypto';

export type FinalStatus = 'Success' | 'Failure';

export interface ChaosPayment {
  merchantIdentifier: string;
  orderId: string;
  amountPaise: number;
  instrument: Record<string, string>;
  /** What the sandbox table says must happen: final status and responseCode. */
  expected: { status: FinalStatus; responseCode: string };
  body: string;
}

/** Every test instrument of the sandbox with its outcome at or above the bank's minimum. */
const INSTRUMENTS: { instrument: Record<string, string>; status: FinalStatus; responseCode: string }[] = [
  { instrument: { payerVpa: 'success@sandbox' }, status: 'Success', responseCode: '100' },
  { instrument: { payerVpa: 'failure@sandbox' }, status: 'Failure', responseCode: '1022' },
  { instrument: { payerVpa: 'noanswer@sandbox' }, status: 'Failure', responseCode: '1023' },
  { instrument: { cardNumber: '4012001037141112' }, status: 'Success', responseCode: '100' },
  { instrument: { cardNumber: '4000000000000002' }, status: 'Failure', responseCode: '1022' },
  { instrument: { bankCode: 'SBIN' }, status: 'Success', responseCode: '100' },
  { instrument: { bankCode: 'FAIL' }, status: 'Failure', responseCode: '1022' },
];
const MIN_BANK_AMOUNT_PAISE = 900;

/** `count` payments spread round-robin over the merchants; about one in seven below 9 rupees. */
export function paymentMix(count: number, merchantIdentifiers: string[]): ChaosPayment[] {
  const run = randomBytes(3).toString('hex');
  return Array.from({ length: count }, (_, i) => {
    const pick = INSTRUMENTS[i % INSTRUMENTS.length]!;
    const belowMinimum = i % 7 === 3;
    const amountPaise = belowMinimum ? randomInt(1, MIN_BANK_AMOUNT_PAISE) : randomInt(MIN_BANK_AMOUNT_PAISE, 5_000_000);
    const merchantIdentifier = merchantIdentifiers[i % merchantIdentifiers.length]!;
    const orderId = `chaos-${run}-${String(i).padStart(4, '0')}`;
    const body = JSON.stringify({
      merchantIdentifier,
      orderId,
      amount: amountPaise,
      productDescription: `Chaos order ${i}`,
      ...pick.instrument,
    });
    return {
      merchantIdentifier,
      orderId,
      amountPaise,
      instrument: pick.instrument,
      expected: belowMinimum
        ? { status: 'Failure', responseCode: '1021' }
        : { status: pick.status, responseCode: pick.responseCode },
      body,
    };
  });
}

/** What became of one request: an HTTP status, or no answer at all (refused, reset, timed out). */
export type Answer = { status: number; txnId?: string } | { status: 'none'; error: string };

export async function pay(apiUrl: string, p: ChaosPayment): Promise<Answer> {
  try {
    const res = await fetch(`${apiUrl}/sandbox/v1/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: p.body,
      signal: AbortSignal.timeout(15_000),
    });
    const json = (await res.json().catch(() => undefined)) as { data?: { txnId?: string } } | undefined;
    return { status: res.status, txnId: json?.data?.txnId };
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause;
    return { status: 'none', error: cause?.code ?? (e as Error).name };
  }
}

/**
 * Sends every payment with `concurrency` requests in flight and at most `perSecond` started per
 * second. `answers` fills as they come (the run looks at it when it kills the gateway).
 */
export function burst(
  apiUrl: string,
  payments: ChaosPayment[],
  o: { concurrency: number; perSecond: number },
): { answers: Map<string, Answer>; done: Promise<void> } {
  const answers = new Map<string, Answer>();
  const started = Date.now();
  let next = 0;
  const sender = async () => {
    for (let i = next++; i < payments.length; i = next++) {
      const due = started + (i * 1000) / o.perSecond;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      answers.set(payments[i]!.orderId, await pay(apiUrl, payments[i]!));
    }
  };
  const done = Promise.all(Array.from({ length: o.concurrency }, sender)).then(() => undefined);
  return { answers, done };
}

/**
 * A merchant's retry of a request that got no answer (or 429/503): the same body again, a few
 * times with a pause, until the gateway answers it.
 */
export async function resend(apiUrl: string, p: ChaosPayment, attempts = 5): Promise<Answer> {
  let answer: Answer = { status: 'none', error: 'not sent' };
  for (let attempt = 0; attempt < attempts; attempt++) {
    answer = await pay(apiUrl, p);
    if (answer.status !== 'none' && answer.status !== 429 && answer.status < 500) return answer;
    await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
  }
  return answer;
}

export const isAnswered2xx = (a: Answer | undefined): boolean =>
  a !== undefined && a.status !== 'none' && a.status >= 200 && a.status < 300;
