import { PASSWORD_MIN_LENGTH } from '../../domain/password';
import { csrfField, publicDashboardPage } from './dashboard-layout';
import { html } from './html';

/** The pages of someone not signed in: sign-in and accepting an invitation. */

export function signInPage(v: { csrf: string; next: string; email?: string; error?: string }): string {
  return publicDashboardPage(
    'Sign in to the merchant dashboard',
    html`<form method="post" action="/dashboard/sign-in">${csrfField(v.csrf)}
  <input type="hidden" name="next" value="${v.next}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required${v.email ? html` value="${v.email}"` : ''}>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>`,
    v.error,
  );
}

export function invitationPage(v: {
  csrf: string;
  action: string;
  email: string;
  role: string;
  merchantName: string;
  error?: string;
}): string {
  return publicDashboardPage(
    `Join ${v.merchantName} on the dashboard`,
    html`<p>You are invited as <strong>${v.role}</strong> with the email <strong id="invited-email">${v.email}</strong>. Choose a password to create your account; this link works once.</p>
<form method="post" action="${v.action}">${csrfField(v.csrf)}
  <label for="password">New password (at least ${PASSWORD_MIN_LENGTH} characters)</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required aria-describedby="password-hint">
  <p class="muted" id="password-hint">A long passphrase is best.</p>
  <label for="passwordAgain">The same password again</label>
  <input id="passwordAgain" name="passwordAgain" type="password" autocomplete="new-password" required>
  <button type="submit">Create my account</button>
</form>`,
    v.error,
  );
}

export const invitationUnusablePage = (text: string) =>
  publicDashboardPage('Invitation not valid', html`<p>${text}</p><p><a href="/dashboard/sign-in">Sign in</a></p>`);
