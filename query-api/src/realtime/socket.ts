import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { SessionCheck, TokenService } from '@pawhaven/platform';
import type { Presence } from './presence';

/**
 * The socket.io endpoint. A client authenticates with its access token (handshake `auth.token`) and joins its
 * room `user:{id}`; chat and notification pushes arrive in later capabilities. The token's session must still be
 * open, exactly as for HTTP: a signed-out or unknown session cannot connect.
 */
export function attachRealtime(
  server: HttpServer,
  tokens: TokenService,
  sessionIsOpen: SessionCheck,
  presence: Presence,
): Server {
  const io = new Server(server, { path: '/socket.io', serveClient: false, cors: { origin: false } });
  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: string } | undefined)?.token;
    const claims = typeof token === 'string' ? await tokens.verify(token) : null;
    if (!claims) return next(new Error('Authentication required'));
    const open = await sessionIsOpen(claims).catch(() => false);
    if (!open) return next(new Error('Your session has ended. Please sign in again.'));
    socket.data.userId = claims.userId;
    next();
  });
  io.on('connection', (socket) => {
    const userId = socket.data.userId as string;
    presence.connected(userId);
    void socket.join(`user:${userId}`);
    socket.on('disconnect', () => presence.disconnected(userId));
  });
  return io;
}
