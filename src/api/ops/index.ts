import type { AudienceModule } from '../audience';
import { auditOperation } from './audit';
import { chargebackOperation } from './chargebacks';
import { codecDecodeOperation, codecEncodeOperation } from './codec';
import { invitationOperation, merchantSettingsOperation, provisionOperation } from './ops';
import { keyOperations } from './ops-keys';
import { merchantSettlementsOperation } from './merchant-settlements';
import { reconciliationOperation, reconciliationReportOperation } from './reconciliations';
import { operatorTokenOperations } from './operator-tokens';
import { settlementAccountOperations } from './settlement-account';
import { settlementOperationsDeclared } from './settlements';
import { webhookOperations } from './webhooks';

/** The operator API (/ops/v1, the operator's bearer token): merchants, keys, webhooks, chargebacks, reconciliations, the codec. */
export const opsModule: AudienceModule = {
  name: 'ops',
  // The public listener serves none of it: operators reach the ops listener over the private network.
  listeners: ['ops'],
  operations: [
    provisionOperation,
    merchantSettingsOperation,
    invitationOperation,
    codecEncodeOperation,
    codecDecodeOperation,
    chargebackOperation,
    reconciliationOperation,
    reconciliationReportOperation,
    auditOperation,
    ...settlementOperationsDeclared,
    merchantSettlementsOperation,
    ...settlementAccountOperations,
    ...keyOperations,
    ...operatorTokenOperations,
    ...webhookOperations,
  ],
};
