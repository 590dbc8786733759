import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import {
  adoptionStream,
  CHAT_MESSAGES as M,
  conversationStream,
  receiptBody,
  sendMessageBody,
  startConversationBody,
  type ChatUserDto,
  type ConversationDto,
  type MessageDto,
  userStream,
} from '@pawhaven/contracts';
import {
  assertCommunityMember,
  currentUserId,
  forbidden,
  handleCommand,
  loadState,
  notFound,
  requireCommunityMember,
  tooMany,
} from '@pawhaven/platform';
import { conversationMemberIsDeleted, creatorIsDeleted } from '../accounts/deleted-users';
import { adoptionAdDecider } from '../adoption/adoption-ad';
import { userDecider, type UserState } from '../accounts/user';
import type { CommandDeps } from '../deps';
import { rateLimitCounter } from '../http/rate-limits';
import { signedIn, uuidParam } from '../http/route-helpers';
import {
  conversationDecider,
  conversationIdFor,
  sentMessage,
  type ConversationCommand,
} from './conversation';

const positionOf = (position: bigint | null) => (position === null ? undefined : String(position));

export type SentMessage = { message: MessageDto; position: string | undefined };

/**
 * The chat's commands, shared by the HTTP routes and the socket gateway (a message sent over the socket is the same
 * command, with the same rules, idempotency and rate limit).
 */
export function chatCommands(deps: CommandDeps) {
  const { store, db } = deps;
  const now = deps.now ?? (() => new Date());
  const withinMessageLimit = rateLimitCounter(deps, 'messages');
  const rateLimited = () => tooMany(M.rateLimited);

  const run = (conversationId: string, command: ConversationCommand, actorId: string) =>
    handleCommand(store, conversationStream(conversationId), conversationDecider, command, { actorId });
  const userOf = async (userId: string) => (await loadState(store, userStream(userId), userDecider)).state;
  const chatUser = (u: UserState): ChatUserDto => ({
    _id: u.userId,
    id: u.userId,
    username: u.username,
    profileImage: u.profileImage,
    isVeterinarian: u.isVeterinarian,
  });

  /**
   * The ad a conversation is about, from the log: its pet's name is its owner's (sealed) text, and an answer that
   * quotes it must be known to hold their data (the kept Idempotency-Key answer is sealed with their key too).
   */
  const adToMention = async (adId: string) => {
    const { state } = await loadState(store, adoptionStream(adId), adoptionAdDecider);
    if (!state.details || state.status === 'none' || state.status === 'deleted') return undefined;
    if (await creatorIsDeleted(db.knex, adoptionStream(adId), 'ownerId')) return undefined;
    return { id: adId, name: state.details.name, image_url: state.details.imageUrl };
  };

  return {
    /** Finds or starts the conversation of the caller and `receiverId` (one conversation per pair, whoever starts). */
    async start(starterId: string, receiverId: string, adId: string | null) {
      const conversationId = conversationIdFor(starterId, receiverId);
      const [starter, other] = await Promise.all([userOf(starterId), userOf(receiverId)]);
      // An ad that does not exist (any more) is simply not mentioned.
      const ad = adId ? await adToMention(adId) : undefined;
      const result = await run(
        conversationId,
        {
          type: 'StartConversation',
          data: {
            conversationId,
            starterId,
            otherId: receiverId,
            otherExists: other.status !== 'unregistered' && other.status !== 'deleted',
            adId: ad?.id ?? null,
            now: now(),
          },
        },
        starterId,
      );
      const s = result.state;
      const byId = new Map([
        [starterId, chatUser(starter)],
        [receiverId, chatUser(other)],
      ]);
      const dto: ConversationDto = {
        _id: conversationId,
        id: conversationId,
        members: s.memberIds,
        participants: s.memberIds.map((id) => byId.get(id)!),
        startedBy: s.startedBy,
        // The command side does not keep texts; the list (read model) has the last message.
        lastMessage: null,
        updatedAt: s.startedAt,
        createdAt: s.startedAt,
        unreadCount: 0,
        ad: ad && s.adId === ad.id ? { _id: ad.id, name: ad.name, imageUrl: ad.image_url } : null,
      };
      return { conversation: dto, position: positionOf(result.position) };
    },

    /** Sends a message as `senderId`; a retry with the same clientMessageId answers the message already sent. */
    async send(senderId: string, input: unknown): Promise<SentMessage> {
      const body = sendMessageBody.parse(input ?? {});
      if (body.senderId !== undefined && body.senderId !== senderId) throw forbidden(M.senderMismatch);
      // The HTTP route is guarded by requireCommunityMember; the socket only knows the user id.
      await assertCommunityMember(store, senderId, 'send messages');
      // Only a message actually sent counts against the budget.
      return withinMessageLimit(senderId, rateLimited, async () => {
        const clientMessageId = body.clientMessageId ?? randomUUID();
        const conversationId = body.conversationId.toLowerCase();
        // A conversation with a deleted user is gone for both members: it takes no more messages.
        if (await conversationMemberIsDeleted(db.knex, conversationStream(conversationId)))
          throw notFound(M.conversationNotFound);
        const result = await run(
          conversationId,
          {
            type: 'SendMessage',
            data: { senderId, messageId: randomUUID(), clientMessageId, text: body.text, now: now() },
          },
          senderId,
        );
        const m = sentMessage(result.state, senderId, clientMessageId)!;
        return {
          message: {
            _id: m.messageId,
            id: m.messageId,
            conversationId,
            senderId,
            text: m.text,
            clientMessageId,
            createdAt: m.sentAt,
            status: 'sent',
          },
          position: positionOf(result.position),
        };
      });
    },

    /** The caller has received (delivered) or seen (read) the other member's messages up to one. */
    async receipt(kind: 'delivered' | 'read', userId: string, conversationId: string, input: unknown) {
      const { upToMessageId } = receiptBody.parse(input ?? {});
      const result = await withinMessageLimit(userId, rateLimited, () =>
        run(
          conversationId,
          {
            type: kind === 'read' ? 'MarkRead' : 'MarkDelivered',
            data: { userId, upToMessageId: upToMessageId.toLowerCase(), now: now() },
          },
          userId,
        ),
      );
      return { position: positionOf(result.position) };
    },
  };
}

export type ChatCommands = ReturnType<typeof chatCommands>;

/** Conversations and messages, mounted at /api. Reads are on the query side. */
export function chatRoutes(deps: CommandDeps, chat: ChatCommands = chatCommands(deps)): Router {
  const router = Router();

  router.post(
    '/conversations',
    requireCommunityMember('start conversations', M.signInRequired),
    async (req, res) => {
      const me = currentUserId(req);
      const { senderId, receiverId, adId } = startConversationBody.parse(req.body ?? {});
      if (senderId !== me) throw forbidden(M.senderMismatch);
      const { conversation, position } = await chat.start(me, receiverId, adId?.toLowerCase() ?? null);
      res.json({ success: true, data: conversation, position });
    },
  );

  router.post('/messages', requireCommunityMember('send messages', M.signInRequired), async (req, res) => {
    const { message, position } = await chat.send(currentUserId(req), req.body);
    res.status(201).json({ success: true, data: message, position });
  });

  for (const kind of ['read', 'delivered'] as const) {
    router.post(`/conversations/:id/${kind}`, signedIn(M.signInRequired), async (req, res) => {
      const conversationId = uuidParam(req.params.id, M.conversationNotFound);
      res.json({
        success: true,
        ...(await chat.receipt(kind, currentUserId(req), conversationId, req.body)),
      });
    });
  }

  return router;
}
