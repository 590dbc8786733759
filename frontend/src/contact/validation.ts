import { CONTACT_EMAIL, CONTACT_MESSAGES } from '@pawhaven/contracts';
import { ApiError } from '../shared/api';

/**
 * The contact form's rules: name, e-mail and message are required; the e-mail must be text, at-sign, text, dot, text
 * ('Please enter a valid email address.'), else nothing is sent. After a send the fields reset and the success flag
 * shows for 5 seconds.
 */
export type ContactFields = { name: string; email: string; message: string };
export type ContactErrors = Partial<Record<keyof ContactFields, string>>;

export const EMPTY_CONTACT: ContactFields = { name: '', email: '', message: '' };

/** How long the success flag shows after a send. */
export const CONTACT_SUCCESS_MS = 5000;

export const isValidContactEmail = (email: string) => CONTACT_EMAIL.test(email.trim());

/** The field errors of the form (empty when it may be sent). */
export function validateContact(fields: ContactFields): ContactErrors {
  const errors: ContactErrors = {};
  if (!fields.name.trim()) errors.name = 'Please enter your name.';
  if (!fields.email.trim()) errors.email = 'Please enter your email address.';
  else if (!isValidContactEmail(fields.email)) errors.email = CONTACT_MESSAGES.invalidEmail;
  if (!fields.message.trim()) errors.message = 'Please enter a message.';
  return errors;
}

export const hasErrors = (errors: ContactErrors) => Object.keys(errors).length > 0;

/** What is sent: the fields trimmed. */
export const contactPayload = (fields: ContactFields): ContactFields => ({
  name: fields.name.trim(),
  email: fields.email.trim(),
  message: fields.message.trim(),
});

/**
 * The text shown when sending failed: the server's own message when it sent one (a 429 says when to try again),
 * else the product's 'could not be sent' text; a network failure gets that text too.
 */
export function contactFailureText(err: unknown): string {
  if (err instanceof ApiError && err.kind === 'http' && err.serverMessage) return err.serverMessage;
  return CONTACT_MESSAGES.failed;
}
