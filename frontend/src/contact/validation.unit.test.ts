import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES } from '@pawhaven/contracts';
import { ApiError } from '../shared/api';
import {
  contactFailureText,
  contactPayload,
  hasErrors,
  isValidContactEmail,
  validateContact,
} from './validation';

const fields = (over: Partial<{ name: string; email: string; message: string }> = {}) => ({
  name: 'Ayesha',
  email: 'ayesha@example.pk',
  message: 'Can I volunteer at a rescue drive?',
  ...over,
});

describe('contact form rules', () => {
  it('accepts real addresses only (text@text.text, and nothing a mail header could read as more)', () => {
    for (const ok of ['a@b.co', 'ayesha.khan@mail.example.pk', ' padded@x.io ', 'x+y@sub.domain.org'])
      expect(isValidContactEmail(ok), ok).toBe(true);
    for (const bad of [
      '',
      'plain',
      'no-at.example.com',
      'a@b',
      'a@.',
      '@b.c',
      'a@b.',
      'a b@c.d',
      'a@@b.c',
      'a@b.c',
      'a@b.co?cc=x%40evil.example&body=hi',
      'a@b.co,c@d.co',
    ])
      expect(isValidContactEmail(bad), bad).toBe(false);
  });

  it("says 'Please enter a valid email address.' for a malformed e-mail", () => {
    expect(validateContact(fields({ email: 'ayesha@mail' }))).toEqual({
      email: CONTACT_MESSAGES.invalidEmail,
    });
    expect(CONTACT_MESSAGES.invalidEmail).toBe('Please enter a valid email address.');
  });

  it('requires every field (blank text counts as empty)', () => {
    const errors = validateContact({ name: ' ', email: '', message: '\n' });
    expect(Object.keys(errors).sort()).toEqual(['email', 'message', 'name']);
    expect(hasErrors(errors)).toBe(true);
    expect(hasErrors(validateContact(fields()))).toBe(false);
  });

  it('sends the fields trimmed', () => {
    expect(contactPayload({ name: ' Ali ', email: ' ali@x.pk ', message: ' Hi \n' })).toEqual({
      name: 'Ali',
      email: 'ali@x.pk',
      message: 'Hi',
    });
  });

  it("shows the server's message when it sent one, else the failure text", () => {
    const tooMany = new ApiError('http', 429, 'Too many messages, try again in a minute.', null, 'x');
    expect(contactFailureText(tooMany)).toBe('Too many messages, try again in a minute.');
    expect(contactFailureText(new ApiError('http', 500, null, null, 'x'))).toBe(CONTACT_MESSAGES.failed);
    expect(contactFailureText(new ApiError('network', 0, null, null, 'Network error'))).toBe(
      CONTACT_MESSAGES.failed,
    );
    expect(contactFailureText(new Error('boom'))).toBe(CONTACT_MESSAGES.failed);
  });
});
