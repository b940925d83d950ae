import type { SharedUseCases } from '../../api/shared-use-cases';
import { awaitBankRedirect } from '../../usecases/hosted-order';
import type { Runtime } from '../runtime';

/** What every audience's requests share (authentication, the bank's page, the test server's clock), bound once. */
export function buildSharedUseCases(rt: Runtime): SharedUseCases {
  const timeTravel = rt.timeTravel;
  return {
    findMerchant: (merchantIdentifier) => rt.merchants.findById(merchantIdentifier),
    findMerchantAfresh: (merchantIdentifier) => rt.merchants.findFresh(merchantIdentifier),
    findMerchantByApiKeyHash: (apiKeyHash, usedAt) => rt.merchants.findByApiKeyHash(apiKeyHash, usedAt),
    awaitBankRedirect: (order) => awaitBankRedirect(rt, order),
    ...(timeTravel
      ? {
          followTestServerClock: async () => {
            await timeTravel.clock.sync();
          },
        }
      : {}),
  };
}
