import { strict as assert } from 'node:assert';
import { formatRupees, formatRupeesGrouped, rupeesText } from '../../src/domain/money';

/** Paise to text: one module, integer arithmetic, negative amounts keep their sign. */
describe('money formats', () => {
  // 0, 1 paisa, 99 paise, 1 rupee, 123.45 rupees, 1,000 crore rupees.
  const amounts = [0, 1, 99, 100, 12_345, 100_000_000_000];

  it('rupeesText: two decimals, no symbol, no grouping (settlement report, webhook, UPI am)', () => {
    assert.deepEqual(amounts.map(rupeesText), ['0.00', '0.01', '0.99', '1.00', '123.45', '1000000000.00']);
    assert.equal(rupeesText(31_890), '318.90');
    assert.equal(rupeesText(100_000_001), '1000000.01');
  });

  it('formatRupees: ₹ and two decimals, no grouping (memos, dashboard, bank pages)', () => {
    assert.deepEqual(amounts.map(formatRupees), ['₹0.00', '₹0.01', '₹0.99', '₹1.00', '₹123.45', '₹1000000000.00']);
  });

  it('formatRupeesGrouped: ₹, Indian grouping, two decimals (payer pages)', () => {
    assert.deepEqual(amounts.map(formatRupeesGrouped), ['₹0.00', '₹0.01', '₹0.99', '₹1.00', '₹123.45', '₹1,00,00,00,000.00']);
    assert.equal(formatRupeesGrouped(99_999), '₹999.99');
    assert.equal(formatRupeesGrouped(100_000), '₹1,000.00');
    assert.equal(formatRupeesGrouped(12_345_678), '₹1,23,456.78');
    assert.equal(formatRupeesGrouped(10_000_000), '₹1,00,000.00');
  });

  it('negative amounts keep their sign, ahead of the ₹', () => {
    assert.equal(formatRupees(-50), '-₹0.50');
    assert.equal(formatRupees(-12_345), '-₹123.45');
    assert.equal(formatRupees(-1), '-₹0.01');
    assert.equal(formatRupees(-100_000_000_000), '-₹1000000000.00');
    assert.equal(rupeesText(-5), '-0.05');
    assert.equal(rupeesText(-50), '-0.50');
    assert.equal(rupeesText(-100_000), '-1000.00');
    assert.equal(formatRupeesGrouped(-50), '-₹0.50');
    assert.equal(formatRupeesGrouped(-12_345_678), '-₹1,23,456.78');
  });

  it('agrees with toFixed(2) and with Intl en-IN INR, the formats they replace', () => {
    const intl = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
    for (let paise = -100_000; paise < 100_000_000_000; paise = paise < 1000 ? paise + 7 : Math.ceil(paise * 1.37) + 3) {
      assert.equal(rupeesText(paise), (paise / 100).toFixed(2), String(paise));
      assert.equal(formatRupeesGrouped(paise), intl.format(paise / 100), String(paise));
    }
  });

  it('prints the largest safe amount to the paisa', () => {
    assert.equal(rupeesText(Number.MAX_SAFE_INTEGER), '90071992547409.91');
    assert.equal(formatRupeesGrouped(Number.MAX_SAFE_INTEGER), '₹9,00,71,99,25,47,409.91');
  });
});
