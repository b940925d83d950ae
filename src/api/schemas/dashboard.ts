import { z } from 'zod';
import { DASHBOARD_ROLES, EMAIL_PATTERN, normalEmail } from '../../domain/dashboard-roles';
import { PASSWORD_MAX_LENGTH } from '../../domain/password';

/** The dashboard's own requests and forms: unknown fields are refused (design.md, Unknown fields). */

// The pattern before the transform, so that the API reference states it (no spaces around it).
export const emailField = z.string().max(254).regex(EMAIL_PATTERN, 'must be an email address').transform(normalEmail);

export const roleField = z.enum(DASHBOARD_ROLES);

export const invitationRequestSchema = z.strictObject({
  email: emailField.describe('who is invited (the user signs in with it)'),
  role: roleField
    .default('owner')
    .describe('owner (users, keys, settings), developer (keys, webhooks, logs) or viewer (read only)'),
});

export const invitationResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    invitationUrl: z.string().describe('one-time link to set a password; hand it to the user (no mail is sent)'),
    email: z.string(),
    role: roleField,
    expiresAt: z.string().describe('ISO 8601; the link is refused after it (DASHBOARD_INVITATION_HOURS)'),
  }),
});

/** Forms posted by the dashboard's pages (the session's CSRF token is checked and removed before these). */
export const signInFormSchema = z.strictObject({
  csrf: z.string().max(100),
  email: z.string().max(254),
  password: z.string().max(PASSWORD_MAX_LENGTH),
  next: z.string().max(500).optional(),
});

export const acceptInvitationFormSchema = z.strictObject({
  csrf: z.string().max(100),
  password: z.string().max(PASSWORD_MAX_LENGTH),
  passwordAgain: z.string().max(PASSWORD_MAX_LENGTH),
});

export const inviteUserFormSchema = z.strictObject({ email: emailField, role: roleField });
export const changeRoleFormSchema = z.strictObject({ role: roleField });
export const emptyFormSchema = z.strictObject({});

/**
 * The Webhooks page's settings form: these four fields and no other (the merchant's other settings,
 * such as defaultReturnUrl, are the operators'). A checkbox is posted as 'on' or not at all.
 */
export const webhookSettingsFormSchema = z.strictObject({
  webhookUrl: z.string().max(2048).optional(),
  webhookFormat: z.string().max(10).optional(),
  autoRefund: z.literal('on').optional(),
  settlementWebhook: z.literal('on').optional(),
});

/** The first problem of a form, as a sentence for the page. */
export function formProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The form could not be read.';
  const field = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return issue.code === 'unrecognized_keys' ? `Unknown field ${issue.keys.join(', ')}.` : `${field}${issue.message}`;
}
