/** Who has a live socket right now: ephemeral, never an event (typing and presence are socket traffic only). */
export class Presence {
  private readonly sockets = new Map<string, number>();
  connected(userId: string) {
    this.sockets.set(userId, (this.sockets.get(userId) ?? 0) + 1);
  }
  disconnected(userId: string) {
    const n = (this.sockets.get(userId) ?? 1) - 1;
    if (n <= 0) this.sockets.delete(userId);
    else this.sockets.set(userId, n);
  }
  isOnline(userId: string) {
    return this.sockets.has(userId);
  }
  get count() {
    return this.sockets.size;
  }
}
