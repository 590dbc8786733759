import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Pool } from 'pg';
import { Server, type Socket } from 'socket.io';
import {
  ADMIN_SOCKET_EVENTS,
  ADMIN_SOCKET_ROOM,
  CHAT_MESSAGES as M,
  REBUILD_PROGRESS_NOTICE,
  sendMessageBody,
  type MessageDto,
} from '@pawhaven/contracts';
import {
  assertSafeInput,
  forbidden,
  listenForChanges,
  logger,
  noteIfDatabaseUnavailable,
  unauthorized,
  type ChangeNotice,
  type SessionCheck,
  type TokenService,
} from '@pawhaven/platform';
import { rebuildBoardFor } from '../admin/rebuild-board';
import { membersOf, messageById } from '../chat/queries';
import { notificationById } from '../notifications/queries';
import { z } from 'zod';
import { adapterPool } from './adapter-pool';
import { registerSocketEvents, socketEvent, useHandshakeCheck, type SocketEvents } from './events';
import type { Presence, PresenceMessage } from './presence';

/** The server-side event query-api nodes tell each other who is online with. */
const PRESENCE_EVENT = 'pawhaven:presence';

/** The command a `sendMessage` runs: the same as POST /api/messages (the gateway wires command-api's). */
type SendMessage = (
  userId: string,
  body: unknown,
) => Promise<{ message: MessageDto; position: string | undefined }>;

export type RealtimeDeps = {
  tokens: TokenService;
  sessionIsOpen: SessionCheck;
  presence: Presence;
  pool: Pool;
  /** For the change notices' own LISTEN connection. */
  connectionString: string;
  sendMessage: SendMessage;
};

const userRoom = (id: string) => `user:${id}`;
const SESSION_ENDED = 'Your session has ended. Please sign in again.';
const conversationRoom = (id: string) => `conversation:${id}`;

/** Conversations a socket was found to belong to (or not), remembered up to this many per socket. */
const REMEMBERED_CONVERSATIONS = 200;

/** A payload naming a conversation: the same rule and text as POST /api/messages. */
const conversationIdPayload = sendMessageBody.shape.conversationId;
/** A payload naming a user (user ids are UUIDs). */
const userIdPayload = z.string({ error: 'userId is required' }).trim().uuid('userId is not a user');
/** The handshake's `auth`: an access token (a JWT: a few hundred characters). */
const handshakeAuth = z.object({ token: z.string().max(8192) });

/**
 * The socket.io endpoint. A client authenticates with its access token (handshake `auth.token`)
 * and is put in its room `user:{id}`; the token's session must still be open, exactly as for HTTP.
 *
 * What reaches a socket comes from two places:
 * - change notices of the projectors (a message, a receipt, a notification), pushed once the read model holding
 *   it is committed. Every process gets every notice and emits to its own sockets only, so nothing is doubled;
 * - ephemeral traffic (typing, presence), relayed through @socket.io/postgres-adapter so it crosses processes.
 *
 * What a client emits goes through `registerSocketEvents` (events.ts): the input checks of HTTP and one error
 * boundary; the handshake through `useHandshakeCheck`.
 */
export async function attachRealtime(server: HttpServer, deps: RealtimeDeps) {
  const io = new Server(server, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: false },
    // A frame past 1 MB closes its connection before it is parsed (a message is at most 2,000 characters).
    maxHttpBufferSize: 1_000_000,
  });
  io.adapter(
    createAdapter(adapterPool(deps.pool), {
      errorHandler: (error) => {
        // Stopping: a goodbye still on its way when the pool has ended is not an outage (others forget us anyway).
        if (closing) return;
        if (!noteIfDatabaseUnavailable(error, 'socket.io adapter'))
          logger.warn({ err: error }, 'socket.io adapter');
      },
    }),
  );

  // Who is online on the other query-api nodes (presence.ts): their messages in, this node's out.
  io.on(PRESENCE_EVENT, (message: PresenceMessage) => deps.presence.receive(message));
  deps.presence.joinCluster((message) => io.serverSideEmit(PRESENCE_EVENT, message));

  let closing = false;
  useHandshakeCheck(io, async (socket) => {
    const auth = handshakeAuth.safeParse(socket.handshake.auth);
    if (auth.success) assertSafeInput(auth.data, 'auth');
    const claims = auth.success ? await deps.tokens.verify(auth.data.token) : null;
    if (!claims) throw unauthorized('Authentication required');
    if (!(await deps.sessionIsOpen(claims))) throw unauthorized(SESSION_ENDED);
    socket.data.userId = claims.userId;
    socket.data.sessionId = claims.sessionId;
    socket.data.isAdmin = claims.isAdmin;
  });

  /** The other member of a conversation the user belongs to, remembered per socket; null when not a member. */
  const otherMember = async (socket: Socket, conversationId: string): Promise<string | null> => {
    const known = (socket.data.conversations ??= new Map<string, string | null>()) as Map<
      string,
      string | null
    >;
    if (!known.has(conversationId)) {
      const members = await membersOf(deps.pool, conversationId);
      const me = socket.data.userId as string;
      if (known.size >= REMEMBERED_CONVERSATIONS) known.clear();
      known.set(conversationId, members?.includes(me) ? (members.find((m) => m !== me) ?? null) : null);
    }
    return known.get(conversationId) ?? null;
  };

  /** Tells the user's conversation partners whether they are online. */
  const announcePresence = async (userId: string, online: boolean) => {
    const { rows } = await deps.pool.query<{ other_id: string }>({
      name: 'realtime-partners',
      text: 'SELECT other_id FROM conversation_members WHERE user_id = $1',
      values: [userId],
    });
    if (rows.length > 0) io.to(rows.map((r) => userRoom(r.other_id))).emit('presence', { userId, online });
  };

  /** Everything a client may emit. */
  const events: SocketEvents = {
    // The client announces its user id (join); the server already knows it and refuses anyone else's.
    join: socketEvent(z.string({ error: M.joinRefused }).max(200, M.joinRefused), (socket, id) => {
      if (id !== socket.data.userId) throw forbidden(M.joinRefused);
      return { ok: true };
    }),

    /** Opening a conversation: its room carries the conversation's own traffic. */
    joinConversation: socketEvent(conversationIdPayload, async (socket, id) => {
      if (!(await otherMember(socket, id))) throw forbidden(M.notMember);
      await socket.join(conversationRoom(id));
      return { ok: true };
    }),

    /** POST /api/messages' command (the gateway wires command-api's): same rules, retries, limit and answers. */
    sendMessage: socketEvent(sendMessageBody, async (socket, body) => {
      const userId = socket.data.userId as string;
      // As every HTTP command: a session signed out (or a deleted account) since the socket opened sends nothing.
      if (!(await deps.sessionIsOpen({ userId, sessionId: socket.data.sessionId as string }))) {
        setImmediate(() => socket.disconnect(true)); // once the refusal is on its way
        throw unauthorized(SESSION_ENDED);
      }
      return { ok: true, ...(await deps.sendMessage(userId, body)) };
    }),

    userTyping: socketEvent(
      z.object({ conversationId: conversationIdPayload }),
      async (socket, { conversationId }) => {
        const other = await otherMember(socket, conversationId);
        if (!other) throw forbidden(M.notMember);
        io.to(userRoom(other)).emit('userTyping', { userId: socket.data.userId, conversationId });
        return { ok: true };
      },
    ),

    presence: socketEvent(userIdPayload, async (_socket, otherId) => {
      // Not knowing (another process did not answer in time) reads as offline.
      const sockets = await io
        .in(userRoom(otherId))
        .fetchSockets()
        .catch(() => []);
      return { ok: true, userId: otherId, online: sockets.length > 0 };
    }),
  };

  io.on('connection', (socket) => {
    const userId = socket.data.userId as string;
    deps.presence.connected(userId);
    void socket.join(userRoom(userId));
    // Admins' sockets also hear the Projections screen's rebuild progress; nobody else's do.
    if (socket.data.isAdmin === true) void socket.join(ADMIN_SOCKET_ROOM);
    void announcePresence(userId, true).catch(() => {});
    registerSocketEvents(socket, events);

    socket.on('disconnect', () => {
      deps.presence.disconnected(userId);
      if (closing) return; // shutting down: nobody is told, the database is going away
      void io
        .in(userRoom(userId))
        .fetchSockets()
        .then((left) => (left.length === 0 ? announcePresence(userId, false) : undefined))
        .catch(() => {});
    });
  });

  /** Pushes what the projectors just committed to this process's own sockets. */
  const push = async (notice: ChangeNotice) => {
    switch (notice.kind) {
      case 'message': {
        const message = await messageById(deps.pool, String(notice.messageId));
        if (message)
          io.local
            .to([userRoom(String(notice.recipientId)), userRoom(String(notice.senderId))])
            .emit('getMessage', message);
        return;
      }
      case 'receipt':
        if (notice.senderId)
          io.local
            .to([userRoom(String(notice.senderId)), userRoom(String(notice.userId))])
            .emit('messagesStatus', {
              conversationId: notice.conversationId,
              userId: notice.userId,
              upToMessageId: notice.upToMessageId,
              status: notice.status,
            });
        return;
      case 'notification': {
        const notification = await notificationById(deps.pool, String(notice.userId), String(notice.id));
        if (notification) io.local.to(userRoom(String(notice.userId))).emit('notification', notification);
        return;
      }
      case 'notifications-changed':
        io.local.to(userRoom(String(notice.userId))).emit('notificationsChanged', {});
        return;
      case 'adoptions-changed':
        // No data: the owner's and the requester's adoption lists read themselves again (they check who may see what).
        io.local.to(userRoom(String(notice.userId))).emit('adoptionsChanged', {});
        return;
      case 'conversation-removed':
        io.local
          .to(userRoom(String(notice.userId)))
          .emit('conversationRemoved', { conversationId: String(notice.conversationId) });
        return;
      case 'session-ended': {
        // Signed out, password reset, account deleted: the sockets opened with that session (or all) close.
        const sockets = await io.local.in(userRoom(String(notice.userId))).fetchSockets();
        for (const s of sockets)
          if (notice.sessionId === null || s.data.sessionId === notice.sessionId) s.disconnect(true);
        return;
      }
      case REBUILD_PROGRESS_NOTICE: {
        const board = rebuildBoardFor(deps.connectionString);
        board.record(notice);
        if (board.last) io.local.to(ADMIN_SOCKET_ROOM).emit(ADMIN_SOCKET_EVENTS.rebuildProgress, board.last);
        return;
      }
      default:
        return;
    }
  };
  // One at a time, in commit order: two messages sent in a row arrive in that order.
  let pushing = Promise.resolve();
  const changes = await listenForChanges(deps.connectionString, (notices) => {
    for (const notice of notices)
      pushing = pushing.then(() =>
        push(notice).catch((error: unknown) => {
          if (!noteIfDatabaseUnavailable(error, 'socket push'))
            logger.warn({ err: error, notice }, 'push failed');
        }),
      );
  });

  let closed: Promise<void> | undefined;
  return {
    io,
    /** Closes every socket and stops listening for changes; a second call waits for the first. */
    close() {
      closing = true;
      return (closed ??= (async () => {
        deps.presence.leaveCluster();
        await changes.stop();
        await new Promise<void>((resolve) => void io.close(() => resolve()));
      })());
    },
  };
}
