/** An order as every collection keyed by order names it: the merchant and its orderId. */
export interface OrderRef {
  merchantIdentifier: string;
  orderId: string;
}
