import escapeHtml from 'escape-html';

/**
 * HTML that escapes by default: pages are written with the `html` tagged template, whose every
 * interpolated value is escaped (`& < > " '`, so a value is safe in text and in a quoted attribute
 * alike) unless it is itself `Html`: a nested `html` template (inserted as it is, never escaped
 * twice) or markup named with `raw(...)`. An array is joined, each item by the same rule; `null`,
 * `undefined` and `false` write nothing, so `${cond && html`...`}` reads naturally.
 *
 * Our own 40 lines rather than a library: the escaping itself is `escape-html` (already used, well
 * kept), and what matters here is the `Html` type, which TypeScript keeps apart from `string`, so
 * that the layouts take only `Html` and a page cannot hand them text it forgot to escape. The
 * libraries that do this (lit-html, htm) are built for the browser's DOM; the small server ones
 * (html-template-tag, common-tags) return plain strings and lose that distinction.
 */
export class Html {
  /** Use `html` or `raw`: the constructor trusts its text. */
  private constructor(readonly text: string) {}

  /** @internal the one way markup is made from text that is not escaped. */
  static trusted(text: string): Html {
    return new Html(text);
  }

  toString(): string {
    return this.text;
  }
}

/** What a page may interpolate: text and numbers (escaped), `Html`, lists of them, or nothing. */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return Html.trusted(out);
}

/**
 * Markup inserted as it is: only for markup the code itself produced (a library's SVG, a CSS block),
 * never for a value from a request, the store or a merchant.
 */
export function raw(markup: string): Html {
  return Html.trusted(markup);
}

/** Items joined with a separator between them (the separator is markup too). */
export function joinHtml(items: readonly HtmlValue[], separator: Html): Html {
  return Html.trusted(items.map(render).join(separator.text));
}
