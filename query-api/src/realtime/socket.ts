import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Pool } from 'pg';
import { Server, type Socket } from 'socket.io';
import {
  ADMIN_SOCKET_EVENTS,
  ADMIN_SOCKET_ROOM,
  CHAT_MESSAGES as M,
  REBUILD_PROGRESS_NOTICE,
  type MessageDto,
} from '@pawhaven/contracts';
import {
  assertSafeInput,
  HttpError,
  listenForChanges,
  logger,
  type ChangeNotice,
  type SessionCheck,
  type TokenService,
} from '@pawhaven/platform';
import { rebuildBoardFor } from '../admin/rebuild-board';
import { membersOf, messageById } from '../chat/queries';
import { notificationById } from '../notifications/queries';
import type { Presence } from './presence';

/** The command a `sendMessage` runs: the same as POST /api/messages (the gateway wires command-api's). */
export type SendMessage = (
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

type Ack = (answer: unknown) => void;
const ackOf = (value: unknown): Ack => (typeof value === 'function' ? (value as Ack) : () => {});
const refusal = (error: unknown) =>
  error instanceof HttpError
    ? { ok: false, status: error.status, message: error.message }
    : error instanceof Error && error.name === 'ZodError'
      ? {
          ok: false,
          status: 400,
          message: (error as { issues?: { message: string }[] }).issues?.[0]?.message ?? 'Invalid input',
        }
      : { ok: false, status: 500, message: 'Something went wrong' };

const userRoom = (id: string) => `user:${id}`;
const SESSION_ENDED = 'Your session has ended. Please sign in again.';
const conversationRoom = (id: string) => `conversation:${id}`;

/**
 * The socket.io endpoint (ARCHITECTURE §1). A client authenticates with its access token (handshake `auth.token`)
 * and is put in its room `user:{id}`; the token's session must still be open, exactly as for HTTP.
 *
 * What reaches a socket comes from two places:
 * - change notices of the projectors (a message, a receipt, a notification), pushed once the read model holding
 *   it is committed. Every process gets every notice and emits to its own sockets only, so nothing is doubled;
 * - ephemeral traffic (typing, presence), relayed through @socket.io/postgres-adapter so it crosses processes.
 */
export async function attachRealtime(server: HttpServer, deps: RealtimeDeps) {
  const io = new Server(server, { path: '/socket.io', serveClient: false, cors: { origin: false } });
  io.adapter(createAdapter(deps.pool, { errorHandler: (e) => logger.warn({ err: e }, 'socket.io adapter') }));

  let closing = false;
  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: string } | undefined)?.token;
    const claims = typeof token === 'string' ? await deps.tokens.verify(token) : null;
    if (!claims) return next(new Error('Authentication required'));
    const open = await deps.sessionIsOpen(claims).catch(() => false);
    if (!open) return next(new Error(SESSION_ENDED));
    socket.data.userId = claims.userId;
    socket.data.sessionId = claims.sessionId;
    socket.data.isAdmin = claims.isAdmin;
    next();
  });

  /** The other member of a conversation the user belongs to, remembered per socket; null when not a member. */
  const otherMember = async (socket: Socket, conversationId: unknown): Promise<string | null> => {
    if (typeof conversationId !== 'string' || conversationId.length > 100) return null;
    const known = (socket.data.conversations ??= new Map<string, string | null>()) as Map<
      string,
      string | null
    >;
    if (!known.has(conversationId)) {
      const members = await membersOf(deps.pool, conversationId);
      const me = socket.data.userId as string;
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

  io.on('connection', (socket) => {
    const userId = socket.data.userId as string;
    deps.presence.connected(userId);
    void socket.join(userRoom(userId));
    // Admins' sockets also hear the Projections screen's rebuild progress; nobody else's do.
    if (socket.data.isAdmin === true) void socket.join(ADMIN_SOCKET_ROOM);
    void announcePresence(userId, true).catch(() => {});

    // The spec's client announces its user id; the server already knows it and refuses anyone else's.
    socket.on('join', (id: unknown, ack: unknown) => {
      if (id !== userId) return ackOf(ack)({ ok: false, message: M.joinRefused });
      ackOf(ack)({ ok: true });
    });

    /** Opening a conversation: its room carries the conversation's own traffic. */
    socket.on('joinConversation', async (conversationId: unknown, ack: unknown) => {
      if (!(await otherMember(socket, conversationId)))
        return ackOf(ack)({ ok: false, message: M.notMember });
      await socket.join(conversationRoom(conversationId as string));
      ackOf(ack)({ ok: true });
    });

    socket.on('sendMessage', async (body: unknown, ack: unknown) => {
      try {
        // As every HTTP command: a session signed out (or a deleted account) since the socket opened sends nothing.
        if (!(await deps.sessionIsOpen({ userId, sessionId: socket.data.sessionId as string }))) {
          ackOf(ack)({ ok: false, status: 401, message: SESSION_ENDED });
          socket.disconnect(true);
          return;
        }
        assertSafeInput(body, 'message');
        const sent = await deps.sendMessage(userId, body);
        ackOf(ack)({ ok: true, ...sent });
      } catch (error) {
        ackOf(ack)(refusal(error));
      }
    });

    socket.on('userTyping', async (payload: unknown) => {
      const conversationId = (payload as { conversationId?: unknown } | null)?.conversationId;
      const other = await otherMember(socket, conversationId).catch(() => null);
      if (other) io.to(userRoom(other)).emit('userTyping', { userId, conversationId });
    });

    socket.on('presence', async (otherId: unknown, ack: unknown) => {
      if (typeof otherId !== 'string') return ackOf(ack)({ online: false });
      const sockets = await io
        .in(userRoom(otherId))
        .fetchSockets()
        .catch(() => []);
      ackOf(ack)({ userId: otherId, online: sockets.length > 0 });
    });

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
        push(notice).catch((error: unknown) => logger.warn({ err: error, notice }, 'push failed')),
      );
  });

  return {
    io,
    async close() {
      closing = true;
      await changes.stop();
      await new Promise<void>((resolve) => void io.close(() => resolve()));
    },
  };
}
