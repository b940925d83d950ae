import { strict as assert } from 'node:assert';
import type { DashboardRole } from '../../src/domain/dashboard-roles';
import type { TestGateway } from './gateway';
import { request } from './http';

export const DASHBOARD_PASSWORD = 'correct horse battery staple';

/** The operator's invitation link (ops API), opened on the test gateway's own address. */
export async function invite(
  gw: TestGateway,
  merchantIdentifier: string,
  email: string,
  role: DashboardRole = 'owner',
): Promise<string> {
  const res = await request(`${gw.baseUrl}/ops/v1/merchants/${merchantIdentifier}/invitations`, {
    body: { email, role },
    headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
  });
  assert.equal(res.status, 201, res.text);
  return `${gw.baseUrl}${new URL(res.json.data.invitationUrl).pathname}`;
}

/** A browser without script: cookies kept per name, forms posted form-encoded, redirects not followed. */
export class FormClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  /** A GET, or a POST of `form` form-encoded (or of `body` as given, with its own Content-Type). */
  async send(
    path: string,
    init: { method?: string; form?: Record<string, string>; body?: string; headers?: Record<string, string> } = {},
  ) {
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`;
    const res = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : init.body !== undefined ? { body: init.body } : {}),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, ...value] = pair!.split('=');
      if (/expires=Thu, 01 Jan 1970/i.test(c) || value.join('=') === '') this.cookies.delete(name!);
      else this.cookies.set(name!, value.join('='));
    }
    return { status: res.status, location: res.headers.get('location'), headers: res.headers, text: await res.text() };
  }

  /** The CSRF token of the forms of a page. */
  async csrfOf(path: string): Promise<string> {
    const page = await this.send(path);
    assert.equal(page.status, 200, `${path}: ${page.status} ${page.text.slice(0, 200)}`);
    const m = /name="csrf" value="([^"]+)"/.exec(page.text);
    assert.ok(m, `${path} has a form with a CSRF token`);
    return m[1]!;
  }

  async signIn(email: string, password = DASHBOARD_PASSWORD) {
    const csrf = await this.csrfOf('/dashboard/sign-in');
    return this.send('/dashboard/sign-in', { form: { csrf, email, password, next: '/dashboard' } });
  }

  /** Posts a dashboard form with the session's CSRF token (read from the dashboard's first page). */
  async post(path: string, fields: Record<string, string>) {
    const csrf = await this.csrfOf('/dashboard');
    return this.send(path, { form: { csrf, ...fields } });
  }
}

/** Sets the password through the invitation link, the way the page's form does. */
export async function accept(client: FormClient, invitationUrl: string, password = DASHBOARD_PASSWORD) {
  const csrf = await client.csrfOf(invitationUrl);
  return client.send(invitationUrl, { form: { csrf, password, passwordAgain: password } });
}

/** A signed-in user of the merchant with the role (invited by the operator, accepted, signed in). */
export async function dashboardUser(
  gw: TestGateway,
  merchantIdentifier: string,
  role: DashboardRole = 'owner',
  email = newEmail(role),
) {
  const client = new FormClient(gw.baseUrl);
  const accepted = await accept(client, await invite(gw, merchantIdentifier, email, role));
  assert.equal(accepted.status, 303, accepted.text.slice(0, 300));
  const signedIn = await client.signIn(email);
  assert.equal(signedIn.status, 303, signedIn.text.slice(0, 300));
  assert.equal(signedIn.location, '/dashboard');
  return { client, email };
}

let n = 0;
export const newEmail = (prefix = 'user') => `${prefix}.${process.pid}.${Date.now().toString(36)}.${n++}@merchant.example`;
