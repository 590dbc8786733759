import { describe, expect, it } from 'vitest';
import { CHAT_MESSAGES as M, type ChatEvent } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { conversationDecider, conversationIdFor, type ConversationCommand } from './conversation';

const given = deciderSpec(conversationDecider);
const now = new Date('2026-11-22T10:00:00.000Z');
const at = now.toISOString();
const earlier = '2026-11-22T09:00:00.000Z';
const cid = conversationIdFor('alice', 'bob');

const started: ChatEvent = {
  type: 'ConversationStarted',
  data: {
    conversationId: cid,
    memberIds: ['alice', 'bob'],
    startedBy: 'alice',
    adId: null,
    startedAt: earlier,
  },
};
const sent = (messageId: string, senderId: string, clientMessageId = `c-${messageId}`): ChatEvent => ({
  type: 'MessageSent',
  data: {
    conversationId: cid,
    messageId,
    senderId,
    recipientId: senderId === 'alice' ? 'bob' : 'alice',
    text: `hello ${messageId}`,
    clientMessageId,
    sentAt: earlier,
  },
});
const start = (starterId: string, otherId: string, adId: string | null = null, otherExists = true) => ({
  type: 'StartConversation' as const,
  data: { conversationId: cid, starterId, otherId, otherExists, adId, now },
});
const send = (
  senderId: string,
  text: string,
  clientMessageId = 'c-new',
  messageId = 'm-new',
): ConversationCommand => ({
  type: 'SendMessage',
  data: { senderId, messageId, clientMessageId, text, now },
});
const receipt = (
  type: 'MarkDelivered' | 'MarkRead',
  userId: string,
  upToMessageId: string,
): ConversationCommand => ({
  type,
  data: { userId, upToMessageId, now },
});

describe('conversationIdFor', () => {
  it('is the same for both orders of the members, and differs for other pairs', () => {
    expect(conversationIdFor('bob', 'alice')).toBe(cid);
    expect(conversationIdFor('alice', 'carol')).not.toBe(cid);
    expect(cid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('StartConversation', () => {
  it('starts a conversation of the two users, the starter first', () =>
    given()
      .when(start('alice', 'bob'))
      .then([
        {
          type: 'ConversationStarted',
          data: {
            conversationId: cid,
            memberIds: ['alice', 'bob'],
            startedBy: 'alice',
            adId: null,
            startedAt: at,
          },
        },
      ]));

  it('records nothing when it is already started (find-or-create, from either side)', () => {
    given(started).when(start('alice', 'bob')).thenNothing();
    given(started).when(start('bob', 'alice')).thenNothing();
  });

  it('remembers the ad it was opened from, again only when it changes', () => {
    given(started)
      .when(start('bob', 'alice', 'ad-1'))
      .then([{ type: 'ConversationAboutAd', data: { conversationId: cid, adId: 'ad-1', by: 'bob', at } }]);
    given(started, {
      type: 'ConversationAboutAd',
      data: { conversationId: cid, adId: 'ad-1', by: 'bob', at },
    })
      .when(start('alice', 'bob', 'ad-1'))
      .thenNothing();
  });

  it('refuses a conversation with oneself (400) and with nobody (404)', () => {
    given().when(start('alice', 'alice')).thenRefuses(400, M.notYourself);
    given()
      .when(start('alice', 'bob', null, false))
      .thenRefuses(404, M.userNotFound);
  });
});

describe('SendMessage', () => {
  it('records the trimmed message for the other member', () =>
    given(started)
      .when(send('bob', '  hi Alice  '))
      .then([
        {
          type: 'MessageSent',
          data: {
            conversationId: cid,
            messageId: 'm-new',
            senderId: 'bob',
            recipientId: 'alice',
            text: 'hi Alice',
            clientMessageId: 'c-new',
            sentAt: at,
          },
        },
      ]));

  it('records nothing for a retried send (same sender, same client id)', () =>
    given(started, sent('m1', 'bob', 'c-1'))
      .when(send('bob', 'hello', 'c-1', 'm-other'))
      .thenNothing());

  it('lets the other member use the same client id', () =>
    given(started, sent('m1', 'bob', 'c-1'))
      .when(send('alice', 'hello', 'c-1'))
      .then([
        {
          type: 'MessageSent',
          data: {
            conversationId: cid,
            messageId: 'm-new',
            senderId: 'alice',
            recipientId: 'bob',
            text: 'hello',
            clientMessageId: 'c-1',
            sentAt: at,
          },
        },
      ]));

  it('refuses non-members (403), empty text (400) and unknown conversations (404)', () => {
    given(started).when(send('mallory', 'hi')).thenRefuses(403, M.notMember);
    given(started).when(send('bob', '   ')).thenRefuses(400, M.textRequired);
    given().when(send('bob', 'hi')).thenRefuses(404, M.conversationNotFound);
  });
});

describe('MarkDelivered and MarkRead', () => {
  const history = [started, sent('m1', 'alice'), sent('m2', 'bob'), sent('m3', 'alice')];

  it('mark up to the newest message of the other member at or before the one named', () => {
    given(...history)
      .when(receipt('MarkRead', 'bob', 'm3'))
      .then([
        { type: 'MessagesRead', data: { conversationId: cid, userId: 'bob', upToMessageId: 'm3', at } },
      ]);
    // bob's own m2 is not his to receive: the receipt reaches back to alice's m1.
    given(...history)
      .when(receipt('MarkDelivered', 'bob', 'm2'))
      .then([
        { type: 'MessagesDelivered', data: { conversationId: cid, userId: 'bob', upToMessageId: 'm1', at } },
      ]);
  });

  it('record nothing when already covered, or when the other member sent nothing', () => {
    const read: ChatEvent = {
      type: 'MessagesRead',
      data: { conversationId: cid, userId: 'bob', upToMessageId: 'm3', at: earlier },
    };
    given(...history, read)
      .when(receipt('MarkRead', 'bob', 'm3'))
      .thenNothing();
    given(...history, read)
      .when(receipt('MarkDelivered', 'bob', 'm1'))
      .thenNothing();
    given(started, sent('m1', 'alice'))
      .when(receipt('MarkRead', 'alice', 'm1'))
      .thenNothing();
  });

  it('refuse non-members (403) and unknown messages (404)', () => {
    given(...history)
      .when(receipt('MarkRead', 'mallory', 'm1'))
      .thenRefuses(403, M.notMember);
    given(...history)
      .when(receipt('MarkRead', 'bob', 'nope'))
      .thenRefuses(404, M.messageNotFound);
    given()
      .when(receipt('MarkDelivered', 'bob', 'm1'))
      .thenRefuses(404, M.conversationNotFound);
  });
});
