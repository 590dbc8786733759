import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADOPTION_EVENT_TYPES,
  CHAT_EVENT_TYPES,
  COMMUNITY_EVENT_TYPES,
  CONTACT_EVENT_TYPES,
  DIRECTORY_EVENT_TYPES,
  NOTIFICATION_EVENT_TYPES,
  USER_EVENT_TYPES,
} from './index';
import {
  hidePrivateFields,
  PERSONAL_DATA,
  personalDataOwners,
  personalDataRule,
  PRIVATE_MESSAGE,
  readPath,
  writePath,
  writePaths,
} from './personal-data';

const listed = new Set(Object.keys(PERSONAL_DATA));

describe('personal data in events', () => {
  it('lists every event type of every context, as personal or explicitly not', () => {
    const all = [
      ...USER_EVENT_TYPES,
      ...ADOPTION_EVENT_TYPES,
      ...COMMUNITY_EVENT_TYPES,
      ...CHAT_EVENT_TYPES,
      ...NOTIFICATION_EVENT_TYPES,
      ...DIRECTORY_EVENT_TYPES,
      ...CONTACT_EVENT_TYPES,
    ];
    expect(all.filter((t) => !listed.has(t))).toEqual([]);
  });

  it('lists every event type named in the event sources (so one missing from a runtime list cannot leak)', () => {
    const dir = path.join(import.meta.dirname, 'events');
    const named = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      for (const m of source.matchAll(/type: '([A-Z][A-Za-z]+)'/g)) named.add(m[1]!);
    }
    expect(named.size).toBeGreaterThan(40);
    expect([...named].filter((t) => !listed.has(t))).toEqual([]);
  });

  it('gives every personal rule an owner and at least one field, and every other type a reason', () => {
    for (const [type, entry] of Object.entries(PERSONAL_DATA)) {
      if ('none' in entry) expect(entry.none, type).not.toBe('');
      else {
        expect(entry.fields.length, type).toBeGreaterThan(0);
        expect(Object.keys(entry.owner), type).toHaveLength(1);
      }
    }
  });

  it('covers the issue’s fields: e-mail, phone, names typed in requests, message and comment texts, about, city', () => {
    const fieldsOf = (type: string) => personalDataRule(type)?.fields.map((f) => f.path) ?? [];
    expect(fieldsOf('UserRegistered')).toContain('email');
    expect(fieldsOf('ProfileUpdated')).toEqual(['phone', 'city', 'about']);
    expect(fieldsOf('AdoptionRequested')).toEqual(['name', 'email', 'phone', 'message']);
    expect(fieldsOf('MessageSent')).toEqual(['text']);
    expect(fieldsOf('CommentAdded')).toEqual(['content']);
    expect(fieldsOf('PostPublished')).toEqual(['caption']);
    expect(personalDataRule('SessionStarted')).toBeUndefined();
    expect(personalDataRule('SomethingNew')).toBeUndefined();
  });

  it('finds the owner in the data, the stream id or the actor, and both members of a conversation', () => {
    const request = personalDataRule('AdoptionRequested')!;
    expect(personalDataOwners(request, { streamId: 'adoption-a', data: { requesterId: 'u-1' } })).toEqual([
      'u-1',
    ]);
    const profile = personalDataRule('ProfileUpdated')!;
    expect(personalDataOwners(profile, { streamId: 'user-u-2', data: { phone: '1' } })).toEqual(['u-2']);
    const update = personalDataRule('AdoptionAdUpdated')!;
    expect(
      personalDataOwners(update, { streamId: 'adoption-a', data: {}, metadata: { actorId: 'u-3' } }),
    ).toEqual(['u-3']);
    expect(
      personalDataOwners(update, { streamId: 'adoption-a', data: {}, metadata: { actorId: 'system' } }),
    ).toEqual([]);
    const contact = personalDataRule('ContactMessageReceived')!;
    expect(personalDataOwners(contact, { streamId: 'contact-message-m', data: { userId: null } })).toEqual(
      [],
    );
    const message = personalDataRule('MessageSent')!;
    const sent = { streamId: 'conversation-c', data: { senderId: 'u-4', recipientId: 'u-5', text: 'Hi' } };
    expect(personalDataOwners(message, sent)).toEqual(['u-4', 'u-5']);
    expect(personalDataOwners(message, { ...sent, data: { senderId: 'u-4', text: 'Hi' } })).toEqual([]);
  });

  it("shows admins a private message's placeholder instead of its text, whatever the field holds", () => {
    const sent = {
      type: 'MessageSent',
      data: { senderId: 'u-4', recipientId: 'u-5', text: 'My address is…' },
    };
    expect(hidePrivateFields(sent)).toEqual({ ...sent, data: { ...sent.data, text: PRIVATE_MESSAGE } });
    expect(sent.data.text).toBe('My address is…');
    const sealed = { ...sent, data: { ...sent.data, text: 'pii:v1:…' } };
    expect(hidePrivateFields(sealed).data.text).toBe('[private message]');
    // Everything else is shown as it is.
    const comment = { type: 'CommentAdded', data: { content: 'Lovely' } };
    expect(hidePrivateFields(comment)).toBe(comment);
    const fields = Object.entries(PERSONAL_DATA).flatMap(([type, e]) =>
      'fields' in e ? e.fields.filter((f) => f.private).map((f) => `${type}.${f.path}`) : [],
    );
    expect(fields).toEqual(['MessageSent.text']);
  });

  it('reads and writes nested paths without changing the original', () => {
    const data = { details: { description: 'Calm', name: 'Moti' }, ownerId: 'u' };
    expect(readPath(data, 'details.description')).toBe('Calm');
    expect(readPath(data, 'details.missing.deeper')).toBeUndefined();
    const changed = writePath(data, 'details.description', 'x');
    expect(changed).toEqual({ details: { description: 'x', name: 'Moti' }, ownerId: 'u' });
    expect(data.details.description).toBe('Calm');
  });

  it('writes several paths at once, copying each object on the way and leaving the original as it was', () => {
    const data = {
      details: { description: 'Calm', location: 'Lahore', name: 'Moti' },
      email: 'a@b.pk',
      n: 1,
    };
    const changed = writePaths(data, [
      ['details.description', 'x'],
      ['details.location', ''],
      ['email', null],
    ]);
    expect(changed).toEqual({ details: { description: 'x', location: '', name: 'Moti' }, email: null, n: 1 });
    expect(data).toEqual({
      details: { description: 'Calm', location: 'Lahore', name: 'Moti' },
      email: 'a@b.pk',
      n: 1,
    });
  });
});
