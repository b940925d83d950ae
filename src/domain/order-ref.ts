/** An order as the merchant names it: its orderId, unique among every order of the merchant. */
export interface OrderRef {
  merchantIdentifier: string;
  orderId: string;
}

/** The key of an order in every collection keyed by order: `<merchantIdentifier>:<orderId>`. */
export const orderKey = (o: OrderRef) => `${o.merchantIdentifier}:${o.orderId}`;
