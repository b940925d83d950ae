/**
 * A JSON object, or the unquoted form some PHP kits send to `/checkTxn`
 * (`{merchantIdentifier:X,mode:0,orderDetail:{orderId:Y}}`): keys and text values may go without
 * quotes; a bare value runs to the next `,` or `}` and is kept as text. Anything else is null.
 * Read only after the checksum over the raw text matched (or only to find who signed it).
 */
export function parseLooseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    // not JSON: the unquoted form, below
  }
  const parser = new LooseParser(text);
  try {
    const value = parser.object();
    parser.skipSpace();
    return parser.atEnd() ? value : null;
  } catch {
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep enough for any request a kit sends; deeper text is refused rather than recursed into. */
const MAX_DEPTH = 8;

class LooseParser {
  private at = 0;
  constructor(private readonly text: string) {}

  atEnd = () => this.at >= this.text.length;

  skipSpace() {
    while (!this.atEnd() && /\s/.test(this.text[this.at])) this.at++;
  }

  private expect(ch: string) {
    this.skipSpace();
    if (this.text[this.at] !== ch) throw new Error(`expected ${ch} at ${this.at}`);
    this.at++;
  }

  object(depth = 0): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw new Error('too deep');
    this.expect('{');
    const out = Object.create(null) as Record<string, unknown>;
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return { ...out };
    }
    for (;;) {
      const key = this.scalar(':');
      if (key === '' || Object.hasOwn(out, key)) throw new Error('empty or repeated key');
      this.expect(':');
      this.skipSpace();
      out[key] = this.text[this.at] === '{' ? this.object(depth + 1) : this.scalar(',}');
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === '}') return { ...out };
      if (next !== ',') throw new Error(`expected , or } at ${this.at - 1}`);
    }
  }

  /** A quoted JSON string, or bare text up to one of `stops` (trimmed). */
  private scalar(stops: string): string {
    this.skipSpace();
    if (this.text[this.at] === '"') {
      const end = this.closingQuote(this.at);
      const value: unknown = JSON.parse(this.text.slice(this.at, end + 1));
      this.at = end + 1;
      return String(value);
    }
    const start = this.at;
    while (!this.atEnd() && !stops.includes(this.text[this.at]) && !'{}"'.includes(this.text[this.at])) this.at++;
    return this.text.slice(start, this.at).trim();
  }

  private closingQuote(open: number): number {
    for (let i = open + 1; i < this.text.length; i++) {
      if (this.text[i] === '\\') i++;
      else if (this.text[i] === '"') return i;
    }
    throw new Error('unterminated string');
  }
}
