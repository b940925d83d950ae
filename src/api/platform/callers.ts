import type { HeadersAuthScheme } from '../operation';

/** The probes, the API reference and the payer's return from the bank: anyone may ask, and nothing is counted. */
export const anyone: HeadersAuthScheme<null> = {
  from: 'headers',
  authenticate: () => Promise.resolve(null),
  limitKey: () => 'no limit',
};
