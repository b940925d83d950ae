import type { Db } from 'mongodb';
import { SplitRepository } from '../store/split-repository';

export type LinkRefusal = 'merchantNotFound' | 'masterNotFound' | 'selfLink' | 'masterIsSub';

/**
 * An operator links a sub-merchant to its master (or unlinks it with null): the master's split
 * API may then give the sub-merchant a share of its orders. A master cannot itself be a
 * sub-merchant, so splits never chain.
 */
export async function linkSubMerchant(
  db: Db,
  merchantIdentifier: string,
  masterMerchantIdentifier: string | null,
): Promise<{ merchantIdentifier: string; masterMerchantIdentifier: string | null } | LinkRefusal> {
  const splits = new SplitRepository(db);
  if (masterMerchantIdentifier !== null) {
    if (masterMerchantIdentifier === merchantIdentifier) return 'selfLink';
    const found = await splits.existing([merchantIdentifier, masterMerchantIdentifier]);
    if (!found.has(merchantIdentifier)) return 'merchantNotFound';
    if (!found.has(masterMerchantIdentifier)) return 'masterNotFound';
    if ((await splits.masterOf(masterMerchantIdentifier)) !== null) return 'masterIsSub';
  }
  if (!(await splits.linkToMaster(merchantIdentifier, masterMerchantIdentifier))) return 'merchantNotFound';
  return { merchantIdentifier, masterMerchantIdentifier };
}
