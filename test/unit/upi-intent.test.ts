import { strict as assert } from 'node:assert';
import { IOS_PAY_APPS, paymentIntentUrls, upiIntentUrl } from '../../src/domain/upi-intent';

describe('UPI intents (domain)', () => {
  it('writes upi://pay with its parameters in order, each value percent-encoded', () => {
    const url = upiIntentUrl({
      payeeVpa: 'meera.textiles@bank',
      payeeName: 'Meera & Sons',
      amountPaise: 123_456,
      txnId: 'ZP123',
      note: 'Order #7 / kurta',
      merchantCategoryCode: '5311',
    });
    assert.equal(
      url,
      'upi://pay?pa=meera.textiles%40bank&pn=Meera%20%26%20Sons&am=1234.56&tr=ZP123&tn=Order%20%237%20%2F%20kurta&cu=INR&mc=5311',
    );
    const params = new URL(url).searchParams;
    assert.equal(params.get('pn'), 'Meera & Sons');
    assert.equal(params.get('tn'), 'Order #7 / kurta');
  });

  it("gives the same query under the Android intent and each iOS app's scheme", () => {
    const intent = 'upi://pay?pa=shop%40bank&am=10.00&cu=INR';
    const urls = paymentIntentUrls(intent);
    assert.equal(urls.androidIntentUrl, intent);
    assert.deepEqual(
      IOS_PAY_APPS.map((a) => urls[a.field]),
      [
        'gpay://upi/pay?pa=shop%40bank&am=10.00&cu=INR',
        'phonepe://pay?pa=shop%40bank&am=10.00&cu=INR',
        'paytmmp://pay?pa=shop%40bank&am=10.00&cu=INR',
        'mobikwik://upi/pay?pa=shop%40bank&am=10.00&cu=INR',
      ],
    );
  });
});
