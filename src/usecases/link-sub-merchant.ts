import type { LinkRefusal, SubMerchantLink } from '../domain/split';
import type { SplitRepository } from '../store/split-repository';

export type { LinkRefusal };

/**
 * An operator links a sub-merchant to its master (or unlinks it with null), optionally under the
 * master's own name for it (the name its split requests give with `isCustomIdentifier: true`, one
 * sub-merchant per name and master): the master's split API may then give the sub-merchant a share
 * of its orders. A master cannot itself be a sub-merchant, so splits never chain.
 */
export async function linkSubMerchant(
  splits: SplitRepository,
  merchantIdentifier: string,
  masterMerchantIdentifier: string | null,
  customIdentifier: string | null = null,
): Promise<SubMerchantLink | LinkRefusal> {
  if (masterMerchantIdentifier !== null) {
    if (masterMerchantIdentifier === merchantIdentifier) return 'selfLink';
    const found = await splits.existing([merchantIdentifier, masterMerchantIdentifier]);
    if (!found.has(merchantIdentifier)) return 'merchantNotFound';
    if (!found.has(masterMerchantIdentifier)) return 'masterNotFound';
    if ((await splits.masterOf(masterMerchantIdentifier)) !== null) return 'masterIsSub';
    if (customIdentifier !== null) {
      const holders = (await splits.subMerchantsByCustomIdentifier(masterMerchantIdentifier, [customIdentifier])).get(
        customIdentifier,
      );
      if (holders?.some((h) => h !== merchantIdentifier)) return 'customIdentifierTaken';
    }
  }
  const name = masterMerchantIdentifier === null ? null : customIdentifier;
  if (!(await splits.linkToMaster(merchantIdentifier, masterMerchantIdentifier, name))) return 'merchantNotFound';
  return { merchantIdentifier, masterMerchantIdentifier, customIdentifier: name };
}
