import { Router } from 'express';
import { CHAT_MESSAGES as M, messagesQuery } from '@pawhaven/contracts';
import { currentUserId, forbidden, notFound, requireUser } from '@pawhaven/platform';
import type { QueryDeps } from '../deps';
import { conversationFor, conversationsOf, membersOf, messagesPage } from './queries';

/** Reads of the chat: one's conversations and their messages, for members only. Mounted at /api. */
export function chatQueries({ db }: QueryDeps): Router {
  const router = Router();

  /** The caller's conversations, most recently updated first (in data.data). */
  router.get('/conversations/:userId', requireUser, async (req, res) => {
    if (req.params.userId !== currentUserId(req)) throw forbidden(M.onlyOwnConversations);
    res.json({ success: true, data: await conversationsOf(db.pool, req.params.userId) });
  });

  /** The conversation of two users, one of them the caller; 404 when they have none. */
  router.get('/conversations/find/:firstUserId/:secondUserId', requireUser, async (req, res) => {
    const me = currentUserId(req);
    const { firstUserId, secondUserId } = req.params;
    if (me !== firstUserId && me !== secondUserId) throw forbidden(M.onlyOwnConversations);
    const other = me === firstUserId ? secondUserId : firstUserId;
    const { rows } = await db.pool.query<{ conversation_id: string }>({
      name: 'chat-conversation-between',
      text: 'SELECT conversation_id FROM conversation_members WHERE user_id = $1 AND other_id = $2 LIMIT 1',
      values: [me, other],
    });
    const found = rows[0] && (await conversationFor(db.pool, rows[0].conversation_id, me));
    if (!found) throw notFound(M.conversationNotFound);
    res.json({ success: true, data: found });
  });

  /** A page of a conversation's messages, newest page first. */
  router.get('/messages/:conversationId', requireUser, async (req, res) => {
    const conversationId = String(req.params.conversationId);
    const members = await membersOf(db.pool, conversationId);
    if (!members) throw notFound(M.conversationNotFound);
    if (!members.includes(currentUserId(req))) throw forbidden(M.notMember);
    const { page, limit } = messagesQuery.parse(req.query);
    res.json(await messagesPage(db.pool, conversationId, page, limit));
  });

  return router;
}
