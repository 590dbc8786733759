import { randomUUID } from 'node:crypto';

/** What query-api nodes tell each other about who is online (socket.io's server-side events between nodes). */
export type PresenceMessage =
  | { kind: 'hello'; node: string; users: string[] }
  | { kind: 'snapshot'; node: string; users: string[] }
  | { kind: 'online' | 'offline'; node: string; userId: string }
  | { kind: 'alive' | 'bye'; node: string };

/**
 * Who has a live socket right now: ephemeral, never an event (typing and presence are socket traffic only).
 *
 * With several query-api nodes, a user's sockets may be on any of them, and an admin's list or a profile is read on
 * any. Each node keeps its own users and a copy of every other node's: a node says when a user gets their first socket
 * on it or loses their last, greets the others when it starts (they answer with their users), says it is alive every
 * `aliveMs`, and goodbye when it stops. A node not heard from for 3.5 × `aliveMs` (it died) is forgotten, its users
 * with it. So `isOnline` stays a synchronous look-up; between nodes it is as fresh as the last message.
 */
export class Presence {
  readonly node = randomUUID();
  private readonly local = new Map<string, number>();
  private readonly remote = new Map<string, { users: Set<string>; seenAt: number }>();
  private send?: (message: PresenceMessage) => void;
  private timer?: NodeJS.Timeout;
  private aliveMs = 10_000;

  connected(userId: string) {
    const n = (this.local.get(userId) ?? 0) + 1;
    this.local.set(userId, n);
    if (n === 1) this.send?.({ kind: 'online', node: this.node, userId });
  }

  disconnected(userId: string) {
    const n = (this.local.get(userId) ?? 1) - 1;
    if (n > 0) return void this.local.set(userId, n);
    this.local.delete(userId);
    this.send?.({ kind: 'offline', node: this.node, userId });
  }

  isOnline(userId: string) {
    if (this.local.has(userId)) return true;
    for (const other of this.remote.values()) if (other.users.has(userId)) return true;
    return false;
  }

  /** Users online on any node. */
  get count() {
    const all = new Set(this.local.keys());
    for (const other of this.remote.values()) for (const u of other.users) all.add(u);
    return all.size;
  }

  /** Starts telling the other nodes through `send`; what they tell comes in through `receive`. */
  joinCluster(send: (message: PresenceMessage) => void, opts: { aliveMs?: number } = {}) {
    this.send = send;
    this.aliveMs = opts.aliveMs ?? this.aliveMs;
    send({ kind: 'hello', node: this.node, users: [...this.local.keys()] });
    this.timer = setInterval(() => {
      send({ kind: 'alive', node: this.node });
      this.forgetSilentNodes();
    }, this.aliveMs);
    this.timer.unref();
  }

  leaveCluster() {
    clearInterval(this.timer);
    this.send?.({ kind: 'bye', node: this.node });
    this.send = undefined;
  }

  receive(message: PresenceMessage) {
    if (message.node === this.node) return;
    const heard = () => {
      const other = this.remote.get(message.node) ?? { users: new Set<string>(), seenAt: 0 };
      other.seenAt = Date.now();
      this.remote.set(message.node, other);
      return other;
    };
    switch (message.kind) {
      case 'hello':
        this.remote.set(message.node, { users: new Set(message.users), seenAt: Date.now() });
        this.send?.({ kind: 'snapshot', node: this.node, users: [...this.local.keys()] });
        return;
      case 'snapshot':
        this.remote.set(message.node, { users: new Set(message.users), seenAt: Date.now() });
        return;
      case 'online':
        heard().users.add(message.userId);
        return;
      case 'offline':
        heard().users.delete(message.userId);
        return;
      case 'alive':
        // A node this one has not heard greet (its hello was lost): greet again, and every node answers.
        if (!this.remote.has(message.node))
          this.send?.({ kind: 'hello', node: this.node, users: [...this.local.keys()] });
        heard();
        return;
      case 'bye':
        this.remote.delete(message.node);
        return;
      default: {
        const never: never = message;
        return never;
      }
    }
  }

  private forgetSilentNodes() {
    const cutoff = Date.now() - 3.5 * this.aliveMs;
    for (const [node, other] of this.remote) if (other.seenAt < cutoff) this.remote.delete(node);
  }
}
