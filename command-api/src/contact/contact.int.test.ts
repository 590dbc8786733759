import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENT_AFTER_HEADER, CONTACT_MESSAGES } from '@pawhaven/contracts';
import { loadConfig } from '@pawhaven/platform';
import { startTestApp, type Json, type TestApp } from '@pawhaven/testing';

/**
 * The contact form (POST /api/contact, name, e-mail and message required): a message is a command, recorded as an
 * event, kept in the contact_messages read model and confirmed to the sender by e-mail; bad input is refused with the
 * form's own texts and records nothing; each client address may send RATE_LIMIT_CONTACT messages per window.
 */

const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';
const CONFIRMATION_SUBJECT = 'We received your message';

let serial = 0;
const message = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ayesha Khan',
  email: `ayesha.${++serial}@example.com`,
  message: 'Hello! I would like to volunteer at a shelter in Lahore on weekends.',
  ...overrides,
});

const count = async (t: TestApp, sql: string) =>
  Number((await t.db.pool.query<{ n: string }>(sql)).rows[0]!.n);
const contactEvents = (t: TestApp) =>
  count(t, `SELECT count(*) AS n FROM events WHERE type = 'ContactMessageReceived'`);
const allEvents = (t: TestApp) => count(t, 'SELECT count(*) AS n FROM events');

const mailTo = async (t: TestApp, email: string) => {
  const res = await t.api.get<{ to: string; subject: string; text: string }[]>(
    `/dev/mailbox?to=${encodeURIComponent(email)}`,
  );
  expect(res.status).toBe(200);
  return res.body;
};

/** Waits until the projections have passed `position`. */
const settle = async (t: TestApp, position: string) => {
  const res = await t.api.get('/api/faq', undefined, { [CONSISTENT_AFTER_HEADER]: position });
  expect(res.headers.get('x-consistency')).toBe('consistent');
};

describe('POST /api/contact', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ config: { RATE_LIMIT_CONTACT: 1000 } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('records a message, keeps it for the inbox and mails the sender a confirmation', async () => {
    const body = message({ name: '  Ayesha Khan ', message: ' Can I foster a kitten? ' });
    const res = await t.api.post('/api/contact', body);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Thank you! Your message has been sent.',
      position: expect.stringMatching(/^\d+$/),
    });

    const { rows } = await t.db.pool.query(
      `SELECT stream_id, type, data, metadata FROM events WHERE type = 'ContactMessageReceived'
       AND data->>'email' = $1`,
      [body.email],
    );
    expect(rows).toHaveLength(1);
    const event = rows[0] as Json;
    expect(event.stream_id).toBe(`contact-message-${event.data.messageId}`);
    expect(event.data).toEqual({
      messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Ayesha Khan',
      email: body.email,
      message: 'Can I foster a kitten?',
      userId: null,
      receivedAt: expect.any(String),
    });
    expect(event.metadata).toEqual({});

    await settle(t, res.body.position);
    const stored = await t.db.pool.query(`SELECT * FROM contact_messages WHERE id = $1`, [
      event.data.messageId,
    ]);
    expect(stored.rows).toEqual([
      {
        id: event.data.messageId,
        name: 'Ayesha Khan',
        email: body.email,
        message: 'Can I foster a kitten?',
        user_id: null,
        received_at: new Date(event.data.receivedAt),
      },
    ]);

    const mails = await mailTo(t, body.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(CONFIRMATION_SUBJECT);
    expect(mails[0]!.text).toContain('We have received your message');
    // Nothing the sender typed is mailed back (the form could otherwise send any words to any address).
    expect(mails[0]!.text).not.toContain('kitten');
    expect(mails[0]!.text).not.toContain('Ayesha');
  });

  it('records who sent it when the sender is signed in', async () => {
    const user = await t.api.registerVerifiedUser();
    const res = await t.api.post('/api/contact', message({ email: user.email }), user.token);
    expect(res.status, res.text).toBe(201);
    await settle(t, res.body.position);
    const { rows } = await t.db.pool.query(`SELECT user_id FROM contact_messages WHERE email = $1`, [
      user.email,
    ]);
    expect(rows).toEqual([{ user_id: user.user._id }]);
    const events = await t.db.pool.query(
      // The address itself is sealed in the event (personal data): find the event by its sender.
      `SELECT metadata FROM events WHERE type = 'ContactMessageReceived' AND metadata->>'actorId' = $1`,
      [user.user._id],
    );
    expect(events.rows).toEqual([{ metadata: { actorId: user.user._id } }]);
  });

  it('refuses a missing or blank field with the form’s message, recording and mailing nothing', async () => {
    const before = await allEvents(t);
    const cases: Record<string, unknown>[] = [
      {},
      { name: undefined },
      { email: undefined },
      { message: undefined },
      { name: '   ' },
      { email: '' },
      { message: '\n\t ' },
      { name: 42 },
      { message: null },
    ];
    for (const overrides of cases) {
      const body = Object.keys(overrides).length === 0 ? {} : message(overrides);
      const res = await t.api.post('/api/contact', body);
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body.message, JSON.stringify(overrides)).toBe(CONTACT_MESSAGES.required);
      if ('email' in body && typeof body.email === 'string' && body.email)
        expect(await mailTo(t, body.email)).toEqual([]);
    }
    const notJson = await t.api.request('POST', '/api/contact', {
      raw: 'name=a&email=a@b.co&message=hi',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(notJson.status).toBe(400);
    expect(await allEvents(t)).toBe(before);
  });

  it('refuses an address that is not text@text.text with the form’s message, recording and mailing nothing', async () => {
    const before = await allEvents(t);
    for (const email of [
      'ayesha',
      'ayesha@mail',
      'ayesha.mail.com',
      '@mail.com',
      'a b@mail.com',
      'a@b@c.com',
      'a@mail.',
      // Real addresses only: it is mailed a confirmation, and nothing may ride along in a mailto: or a header.
      'a@b.co?cc=x%40evil.example&body=hi',
      'a@b.co,c@d.co',
      'x@y.z',
    ]) {
      const res = await t.api.post('/api/contact', message({ email }));
      expect(res.status, email).toBe(400);
      expect(res.body).toEqual({
        message: 'Please enter a valid email address.',
        error: 'Please enter a valid email address.',
        fields: { email: 'Please enter a valid email address.' },
      });
      expect(await mailTo(t, email)).toEqual([]);
    }
    expect(await allEvents(t)).toBe(before);
  });

  it('accepts any address of the shape text@text.text, not only the sign-up domain', async () => {
    for (const email of ['x@y.co', 'first.last+tag@mail.example.co.uk']) {
      const res = await t.api.post('/api/contact', message({ email }));
      expect(res.status, email).toBe(201);
    }
  });

  it('answers a retried message (same Idempotency-Key) with the first answer, recording and mailing once', async () => {
    const body = message();
    const before = await contactEvents(t);
    const headers = { 'Idempotency-Key': 'contact-retry-1' };
    const first = await t.api.request('POST', '/api/contact', { body, headers });
    const retry = await t.api.request('POST', '/api/contact', { body, headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await contactEvents(t)).toBe(before + 1);
    expect(await mailTo(t, body.email)).toHaveLength(1);
  });
});

describe('the contact rate limit', () => {
  it('is 5 messages per window by default (RATE_LIMIT_CONTACT)', () => {
    expect(loadConfig({}, {}).RATE_LIMIT_CONTACT).toBe(5);
    expect(loadConfig({ RATE_LIMIT_CONTACT: '12' }, {}).RATE_LIMIT_CONTACT).toBe(12);
  });

  it('refuses a client address its next message past the limit with a 429, recording and mailing nothing', async () => {
    const t = await startTestApp({ config: { RATE_LIMIT_CONTACT: 2 } });
    try {
      for (let i = 0; i < 2; i++) expect((await t.api.post('/api/contact', message())).status).toBe(201);
      const over = message();
      const res = await t.api.post('/api/contact', over);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ message: TOO_MANY, error: TOO_MANY });
      // Signing in buys no more messages: the limit follows the address.
      const user = await t.api.registerVerifiedUser();
      expect((await t.api.post('/api/contact', message(), user.token)).status).toBe(429);
      expect(await contactEvents(t)).toBe(2);
      expect(await mailTo(t, over.email)).toEqual([]);
    } finally {
      await t.stop();
    }
  });
});
