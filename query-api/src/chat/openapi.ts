import { messagesQuery, receiptBody, sendMessageBody, startConversationBody } from '@pawhaven/contracts';
import type { Operation } from '../system/openapi';

/** The chat calls, for the OpenAPI document. The socket events are described in docs/decisions.md. */
export const chatOperations: Record<string, Operation> = {
  // ── Chat (command side) ──
  'POST /api/conversations': {
    summary:
      'Find or start the conversation of the caller (senderId) and receiverId; adId when opened from an ad',
    body: startConversationBody,
    auth: 'required',
    responses: { 200: 'success, data (the conversation), position' },
  },
  'POST /api/messages': {
    summary: 'Send a message (members only); a retry with the same clientMessageId answers the same message',
    body: sendMessageBody,
    auth: 'required',
    creates: true,
    responses: { 201: 'success, data (the message), position', 429: 'Too many messages' },
  },
  'POST /api/conversations/:id/read': {
    summary: "Mark the other member's messages read up to one (opening the conversation)",
    body: receiptBody,
    auth: 'required',
  },
  'POST /api/conversations/:id/delivered': {
    summary: "Mark the other member's messages received up to one",
    body: receiptBody,
    auth: 'required',
  },
  // ── Chat (query side) ──
  'GET /api/conversations/:userId': {
    summary: "The caller's conversations, most recently updated first (data)",
    auth: 'required',
  },
  'GET /api/conversations/find/:firstUserId/:secondUserId': {
    summary: 'The conversation of two users, one of them the caller (data); 404 when none',
    auth: 'required',
  },
  'GET /api/messages/:conversationId': {
    summary: 'A page of messages, newest page first, each page oldest first (data, pagination)',
    query: messagesQuery,
    auth: 'required',
  },
};
