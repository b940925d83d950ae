import { jsonSchema } from '../reference/operation';
import { checkoutDataSchema, checkoutFieldsSchema } from '../schemas/checkout';
import { checkTxnDataSchema } from '../schemas/check-txn';
import { mandateDataSchema } from '../schemas/mandates';
import { updateTxnDataSchema } from '../schemas/refunds';

/**
 * The JSON inside the `data` form field of the form APIs (and the express checkout's flat fields),
 * as named component schemas: the operations can only say `data` is a string, so its shape is
 * stated here (and reaches the merchant SDK's generated types under these names).
 */
export function formDataComponentSchemas(): Record<string, object> {
  return {
    MandateData: jsonSchema(mandateDataSchema, 'input'),
    CheckoutData: jsonSchema(checkoutDataSchema, 'input'),
    CheckoutFields: jsonSchema(checkoutFieldsSchema, 'input'),
    UpdateTxnData: jsonSchema(updateTxnDataSchema, 'input'),
    CheckTxnData: jsonSchema(checkTxnDataSchema, 'input'),
  };
}
