/**
 * The field-name sequences Zaakpay's official kits and shop plugins post to its legacy endpoints,
 * exactly as each posts them (its order, its spelling, what its platform adds). The legacy checksum
 * `'v1''v2'...` signs values, never names, so a form is read only when its names are one of these
 * sequences for the endpoint it was posted to: a payer holding a signed checkout form cannot move
 * its values under other names (see legacy-form-reading.ts for how a form is matched).
 *
 * Each entry names the kit and the file its sequence was read from (the `zaakpay` organisation's
 * repositories on GitHub unless another owner is named).
 */

/** The endpoints a legacy form is posted to. `transact` is plain `/transact` and `?v=3`; `transactV2` is `?v=2`. */
export type LegacyEndpoint = 'transact' | 'transactV2' | 'checktransaction' | 'updatetransaction';

export interface LegacyKitForm {
  /** The kit or plugin, as its merchants know it. */
  kit: string;
  /** Where the sequence was read: repository and file. */
  source: string;
  endpoint: LegacyEndpoint;
  /** The signed fields, in the order posted (`checksum` is not one of them). */
  names: readonly string[];
  /**
   * Fields the platform posts after `checksum`, which the kit never signed (an image submit
   * button's `x` and `y`): taken only there, and never read.
   */
  unsignedAfterChecksum?: readonly string[];
}

const BUYER = [
  'buyerEmail',
  'buyerFirstName',
  'buyerLastName',
  'buyerAddress',
  'buyerCity',
  'buyerState',
  'buyerCountry',
  'buyerPincode',
  'buyerPhoneNumber',
] as const;
/** The payment fields in the order of the PHP kit's form. */
const PAYMENT = [
  'txnType',
  'zpPayOption',
  'mode',
  'currency',
  'amount',
  'merchantIpAddress',
  'purpose',
  'productDescription',
] as const;
const PRODUCTS = ['product1Description', 'product2Description', 'product3Description', 'product4Description'] as const;
/** `shipTo...` in the PHP kit's order; `cap` spells them as CubeCart and VirtueMart 1.2 do. */
const shipTo = (o: { cap?: boolean; phone?: string | null; first?: string; last?: string } = {}) => {
  const p = o.cap ? 'ShipTo' : 'shipTo';
  const phone = o.phone === undefined ? `${p}PhoneNumber` : o.phone;
  return [
    `${p}Address`,
    `${p}City`,
    `${p}State`,
    `${p}Country`,
    `${p}Pincode`,
    ...(phone ? [phone] : []),
    `${p}${o.first ?? 'Firstname'}`,
    `${p}${o.last ?? 'Lastname'}`,
  ];
};
/** osCommerce and Zen Cart: currency, amount and the description before the shipping fields, the rest after. */
const OSCOMMERCE = [
  'merchantIdentifier',
  'orderId',
  'returnUrl',
  ...BUYER,
  'currency',
  'amount',
  'productDescription',
  ...shipTo(),
  'txnType',
  'zpPayOption',
  'mode',
  'merchantIpAddress',
  'purpose',
  'txnDate',
];
/** The PHP kit's merchant form (every field, empty ones too, as a browser posts a form). */
const PHP_KIT_FORM = ['merchantIdentifier', 'orderId', 'returnUrl', ...BUYER, ...PAYMENT, ...PRODUCTS, ...shipTo(), 'txnDate'];

const PYTHON_KIT_ORDER = [
  'returnUrl',
  'shipToCity',
  'shipToFirstname',
  'currency',
  'buyerPhoneNumber',
  'buyerState',
  'productDescription',
  'shipToCountry',
  'merchantIdentifier',
  'shipToPincode',
  'product3Description',
  'buyerAddress',
  'zpPayOption',
  'mode',
  'orderId',
  'product4Description',
  'shipToPhoneNumber',
  'shipToState',
  'buyerEmail',
  'buyerCity',
  'buyerLastName',
  'purpose',
  'txnDate',
  'shipToAddress',
  'buyerCountry',
  'product2Description',
  'product1Description',
  'merchantIpAddress',
  'amount',
  'txnType',
  'buyerFirstName',
  'shipToLastname',
  'buyerPincode',
];
/** The WordPress core kit posts the buyer's fields first and the merchant's last. */
const WORDPRESS_CORE = [
  'buyerEmail',
  'buyerFirstName',
  'buyerLastName',
  'buyerAddress',
  'buyerCity',
  'buyerState',
  'buyerCountry',
  'buyerPincode',
  'buyerPhoneNumber',
  'amount',
  'txnType',
  'zpPayOption',
  'mode',
  'currency',
  'merchantIpAddress',
  'purpose',
  'productDescription',
  'txnDate',
  'merchantIdentifier',
  'orderId',
  'returnUrl',
];

export const LEGACY_KIT_FORMS: readonly LegacyKitForm[] = [
  // The generic kits' merchant form, posted field for field by the kit's redirect page.
  {
    kit: 'PHP kit',
    source: 'zaakpay-php-kit test_merchant_input.html, posttozaakpay.php',
    endpoint: 'transact',
    names: PHP_KIT_FORM,
  },
  {
    kit: 'JSP kit',
    source: 'zaakpay-jsp-kit test_merchant_input.html, posttozaakpay.jsp',
    endpoint: 'transact',
    names: PHP_KIT_FORM,
  },
  {
    kit: 'PHP kit (its index page)',
    source: 'zaakpay-php-kit posttozaakpay.php line 32',
    endpoint: 'transact',
    names: ['merchantIdentifier', 'orderId', 'returnUrl', ...BUYER, ...PAYMENT, 'txnDate'],
  },
  {
    kit: 'JSP kit (its index page)',
    source: 'zaakpay-jsp-kit posttozaakpay.jsp line 35',
    endpoint: 'transact',
    names: ['merchantIdentifier', 'orderId', ...BUYER, ...PAYMENT, 'txnDate'],
  },
  {
    // The kit posts its dict in Python 2's order of those keys.
    kit: 'Python kit',
    source: 'zaakpay-python-kit checksum.py line 28',
    endpoint: 'transact',
    names: PYTHON_KIT_ORDER,
  },
  {
    // Rails adds the submit button's commit and the route's controller and action to the params the kit signs and posts.
    kit: 'Ruby kit',
    source: 'zaakpay-ruby-kit app/views/payments/post_to_zaakpay.html.erb line 21',
    endpoint: 'transact',
    names: [...PHP_KIT_FORM, 'commit', 'controller', 'action'],
  },
  {
    kit: 'WordPress core kit',
    source: 'zaakpay-core-wordpress-kit posttozaakpay.php line 153',
    endpoint: 'transact',
    names: WORDPRESS_CORE,
  },
  {
    kit: 'Magento',
    source: 'zaakpay-magento-kit app/code/community/Zaakpay/Model/Api/Transact.php',
    endpoint: 'transact',
    names: PHP_KIT_FORM,
  },
  {
    kit: 'CS-Cart',
    source: 'zaakpay-cscart-kit payments/zaakpay.php (the form it prints)',
    endpoint: 'transact',
    names: ['merchantIdentifier', 'orderId', 'returnUrl', ...BUYER, ...PAYMENT, ...shipTo(), 'txnDate'],
  },
  {
    kit: 'X-Cart',
    source: 'zaakpay-xcart-kit payment/cc_zaakpay.php',
    endpoint: 'transact',
    names: ['merchantIdentifier', 'orderId', 'returnUrl', ...BUYER, ...PAYMENT, ...shipTo({ phone: null }), 'txnDate'],
  },
  {
    kit: 'WHMCS',
    source: 'zaakpay-whmcs-kit zaakpay.php (no returnUrl: the merchant default)',
    endpoint: 'transact',
    names: ['merchantIdentifier', 'orderId', ...BUYER, ...PAYMENT, 'txnDate'],
  },
  {
    kit: 'VirtueMart 1.2',
    source: 'zaakpay-virtuemart-1.2-kit ps_zaakpay_info.php (no returnUrl: the merchant default)',
    endpoint: 'transact',
    names: [
      'merchantIdentifier',
      'orderId',
      ...BUYER,
      ...PAYMENT,
      ...shipTo({ cap: true, phone: 'ShipToPhone Number' }),
      'txnDate',
    ],
  },
  {
    kit: 'VirtueMart 2',
    source: 'zaakpay-virtuemart-2.0-kit zaakpay.php',
    endpoint: 'transact',
    names: [
      'merchantIdentifier',
      'orderId',
      'returnUrl',
      ...BUYER,
      ...PAYMENT,
      ...shipTo({ first: 'FirstName', last: 'LastName' }),
      'txnDate',
    ],
  },
  {
    kit: 'CubeCart',
    source: 'zaakpay-cubecart-kit Zaakpay/gateway.class.php',
    endpoint: 'transact',
    names: ['merchantIdentifier', 'orderId', 'returnUrl', ...BUYER, ...PAYMENT, ...shipTo({ cap: true }), 'txnDate'],
  },
  { kit: 'osCommerce 2.3', source: 'zaakpay-oscommerce-kit payment/zaakpay.php', endpoint: 'transact', names: OSCOMMERCE },
  {
    // osCommerce 2.2 confirms the order with an image button (tep_image_submit): the browser adds its click's x and y.
    kit: 'osCommerce 2.2',
    source: 'zaakpay-oscommerce-kit payment/zaakpay.php, on osCommerce 2.2 checkout_confirmation.php',
    endpoint: 'transact',
    names: OSCOMMERCE,
    unsignedAfterChecksum: ['x', 'y'],
  },
  {
    // Zen Cart's form adds its securityToken first; the plugin signs it first too.
    kit: 'Zen Cart',
    source: 'zaakpay-zencart-kit module/zaakpay.php line 279',
    endpoint: 'transact',
    names: ['securityToken', ...OSCOMMERCE],
  },
  {
    // Its default confirm button is an image named btn_submit: the browser adds the click's coordinates.
    kit: 'Zen Cart (image button)',
    source: 'zaakpay-zencart-kit module/zaakpay.php line 279',
    endpoint: 'transact',
    names: ['securityToken', ...OSCOMMERCE],
    unsignedAfterChecksum: ['btn_submit.x', 'btn_submit.y'],
  },
  {
    kit: 'Zen Cart (CSS button)',
    source: 'zaakpay-zencart-kit module/zaakpay.php line 279',
    endpoint: 'transact',
    names: ['securityToken', ...OSCOMMERCE],
    unsignedAfterChecksum: ['btn_submit'],
  },
  {
    kit: 'WooCommerce 2.0',
    source: 'zaakpay-woocommerce-2.0-kit zaakpay/index.php (posts to /transact?v=2)',
    endpoint: 'transactV2',
    names: ['merchantIdentifier', 'orderId', 'returnUrl', ...BUYER, ...PAYMENT, 'txnDate'],
  },

  // Status reads.
  {
    kit: 'PHP kit',
    source: 'zaakpay-php-kit test_status_check_input.html, poststatuschecktozaakpay.php',
    endpoint: 'checktransaction',
    names: ['merchantIdentifier', 'orderId', 'mode', 'submitButton'],
  },
  {
    kit: 'JSP kit',
    source: 'zaakpay-jsp-kit test_status_check_input.html, poststatuschecktozaakpay.jsp',
    endpoint: 'checktransaction',
    names: ['merchantIdentifier', 'orderId', 'mode'],
  },
  {
    kit: 'Magento',
    source: 'zaakpay-magento-kit app/code/community/Zaakpay/Model/Api/Check.php, Request.php',
    endpoint: 'checktransaction',
    names: ['orderId', 'merchantIdentifier', 'mode'],
  },

  // Refunds.
  {
    kit: 'PHP kit',
    source: 'zaakpay-php-kit test_mtx_update_input.html, postmtxupdatetozaakpay.php',
    endpoint: 'updatetransaction',
    names: ['merchantIdentifier', 'updateDesired', 'updateReason', 'orderId', 'mode'],
  },
  {
    kit: 'JSP kit',
    source: 'zaakpay-jsp-kit test_mtx_update_input.html, postmtxupdatetozaakpay.jsp',
    endpoint: 'updatetransaction',
    names: ['merchantIdentifier', 'updateDesired', 'updateReason', 'orderId', 'mode'],
  },
  {
    kit: 'Magento',
    source: 'zaakpay-magento-kit app/code/community/Zaakpay/Model/Api/Update.php, Request.php',
    endpoint: 'updatetransaction',
    names: ['orderId', 'updateDesired', 'updateReason', 'merchantIdentifier', 'mode'],
  },
  {
    kit: 'PHP kit 1.1 (full refund)',
    source: 'deep-mob/Zaakpay_PHP_Integration_Kit_ver1.1 Refund.php',
    endpoint: 'updatetransaction',
    names: ['merchantIdentifier', 'orderId', 'mode', 'updateDesired', 'updateReason'],
  },
  {
    kit: 'PHP kit 1.1 (partial refund)',
    source: 'deep-mob/Zaakpay_PHP_Integration_Kit_ver1.1 Refund.php',
    endpoint: 'updatetransaction',
    names: ['merchantIdentifier', 'orderId', 'mode', 'updateDesired', 'updateReason', 'amount'],
  },
  {
    // The 1.1 kit's form with this gateway's idempotency key last (docs/merchants/refunds.md).
    kit: 'PHP kit 1.1 with merchantRefId',
    source: 'deep-mob/Zaakpay_PHP_Integration_Kit_ver1.1 Refund.php, and merchantRefId appended',
    endpoint: 'updatetransaction',
    names: ['merchantIdentifier', 'orderId', 'mode', 'updateDesired', 'updateReason', 'amount', 'merchantRefId'],
  },
];
