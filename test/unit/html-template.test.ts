import { strict as assert } from 'node:assert';
import { html, joinHtml, raw } from '../../src/api/pages/html';

describe('html: the pages’ template, escaping by default', () => {
  it('escapes & < > " \' in every interpolated value', () => {
    assert.equal(
      String(html`<p>${`<script>alert("x") & 'y'</script>`}</p>`),
      '<p>&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;</p>',
    );
  });

  it('keeps a value inside its quoted attribute', () => {
    const attacker = '" onmouseover="steal()" x="';
    assert.equal(String(html`<a href="${attacker}">x</a>`), '<a href="&quot; onmouseover=&quot;steal()&quot; x=&quot;">x</a>');
    assert.equal(String(html`<input value='${"' autofocus onfocus='x"}'>`), "<input value='&#39; autofocus onfocus=&#39;x'>");
  });

  it('inserts a nested template as it is, its own values escaped once', () => {
    const inner = html`<b>${'a & b'}</b>`;
    assert.equal(String(html`<p>${inner}</p>`), '<p><b>a &amp; b</b></p>');
    assert.equal(String(html`<div>${html`<p>${inner}</p>`}</div>`), '<div><p><b>a &amp; b</b></p></div>');
  });

  it('joins arrays, each item escaped or inserted by the same rule', () => {
    const rows = ['<1>', '2'].map((v) => html`<li>${v}</li>`);
    assert.equal(String(html`<ul>${rows}</ul>`), '<ul><li>&lt;1&gt;</li><li>2</li></ul>');
    assert.equal(String(html`${['<', html`<br>`, ['>']]}`), '&lt;<br>&gt;');
    assert.equal(String(joinHtml([html`<i>a</i>`, '<b>'], html`, `)), '<i>a</i>, &lt;b&gt;');
  });

  it('writes nothing for null, undefined and false, and numbers as text', () => {
    const none: string | undefined = undefined;
    assert.equal(String(html`[${null}${none}${false}${0}${12.5}]`), '[012.5]');
    assert.equal(String(html`${'' !== '' && html`<p>never</p>`}`), '');
  });

  it('inserts markup unescaped only when named with raw()', () => {
    assert.equal(String(html`<div>${raw('<svg role="img"></svg>')}</div>`), '<div><svg role="img"></svg></div>');
    assert.equal(String(html`<div>${'<svg role="img"></svg>'}</div>`), '<div>&lt;svg role=&quot;img&quot;&gt;&lt;/svg&gt;</div>');
  });
});
