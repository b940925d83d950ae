import type http from 'node:http';
import { SIMULATOR_MARKER_HEADER } from './simulator/admin-guard';
import { BankNetworkError, signedCall } from './signed-http';

/**
 * Production never pays through the bank simulator. The simulator marks every answer with
 * `X-Bank-Simulator`; a production gateway checks one signed inquiry at start (and refuses to
 * start when the answer carries the marker), and its connector refuses every marked answer after
 * that, so an acquirer swapped for the simulator later moves no order either.
 */
export const isSimulatorAnswer = (headers: http.IncomingHttpHeaders) => headers[SIMULATOR_MARKER_HEADER] !== undefined;

export class SimulatorBankRefused extends Error {
  constructor(baseUrl: string) {
    super(
      `BANK_BASE_URL ${baseUrl} answers as the bank simulator (X-Bank-Simulator): production never runs against it; point BANK_BASE_URL at the acquirer`,
    );
    this.name = 'SimulatorBankRefused';
  }
}

/**
 * The start-up check of a production gateway: a status inquiry for an id no bank knows. A bank that
 * cannot be reached now is reported (`unreachable`) but does not stop the start: the connector's own
 * check still refuses a simulator's answers.
 */
export async function refuseSimulatorBank(o: {
  baseUrl: string;
  secret: string;
  timeoutMs: number;
}): Promise<'acquirer' | 'unreachable'> {
  const url = `${o.baseUrl.replace(/\/+$/, '')}/v1/payments/gateway-start-check`;
  try {
    const res = await signedCall({ secret: o.secret, method: 'GET', url, timeoutMs: o.timeoutMs });
    if (isSimulatorAnswer(res.headers)) throw new SimulatorBankRefused(o.baseUrl);
    return 'acquirer';
  } catch (e) {
    if (e instanceof BankNetworkError) return 'unreachable';
    throw e;
  }
}
