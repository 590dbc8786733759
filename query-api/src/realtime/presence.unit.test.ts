import { afterEach, describe, expect, it, vi } from 'vitest';
import { Presence, type PresenceMessage } from './presence';

/** Query-api nodes joined as the socket server joins them: what one sends, every other receives. */
function cluster(count: number, aliveMs = 1000) {
  const nodes: Presence[] = [];
  const dead = new Set<Presence>();
  const join = (node: Presence) => {
    nodes.push(node);
    node.joinCluster(
      (m: PresenceMessage) => {
        if (!dead.has(node)) nodes.filter((n) => n !== node && !dead.has(n)).forEach((n) => n.receive(m));
      },
      { aliveMs },
    );
    return node;
  };
  for (let i = 0; i < count; i++) join(new Presence());
  /** The node's process is gone: nothing it sends arrives any more, not even a goodbye. */
  const kill = (node: Presence) => void dead.add(node);
  return { nodes, join, kill };
}

describe('Presence across query-api nodes', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a user online on one node is online on every node, until their last socket closes', () => {
    const { nodes } = cluster(3);
    const [a, b, c] = nodes as [Presence, Presence, Presence];
    a.connected('aisha');
    a.connected('aisha'); // a second tab
    expect([a, b, c].map((n) => n.isOnline('aisha'))).toEqual([true, true, true]);
    a.disconnected('aisha');
    expect(c.isOnline('aisha')).toBe(true);
    a.disconnected('aisha');
    expect([a, b, c].map((n) => n.isOnline('aisha'))).toEqual([false, false, false]);
  });

  it('a user with sockets on two nodes stays online while either has one; each counts once', () => {
    const { nodes } = cluster(2);
    const [a, b] = nodes as [Presence, Presence];
    a.connected('bilal');
    b.connected('bilal');
    b.connected('sana');
    expect(a.count).toBe(2);
    b.disconnected('bilal');
    expect(a.isOnline('bilal')).toBe(true);
    expect(b.isOnline('bilal')).toBe(true);
  });

  it('a node started later learns who is online on the others when it greets them', () => {
    const { nodes, join } = cluster(2);
    nodes[0]!.connected('aisha');
    nodes[1]!.connected('bilal');
    const late = join(new Presence());
    expect(late.isOnline('aisha')).toBe(true);
    expect(late.isOnline('bilal')).toBe(true);
    expect(late.count).toBe(2);
  });

  it('a node that says goodbye takes its users with it; one that goes silent (died) is forgotten after 3.5 beats', () => {
    vi.useFakeTimers();
    const { nodes, kill } = cluster(3, 1000);
    const [a, b, c] = nodes as [Presence, Presence, Presence];
    a.connected('aisha');
    b.connected('bilal');
    a.leaveCluster();
    expect(c.isOnline('aisha')).toBe(false);
    kill(b);
    vi.advanceTimersByTime(3000);
    expect(c.isOnline('bilal')).toBe(true);
    vi.advanceTimersByTime(2000);
    expect(c.isOnline('bilal')).toBe(false);
    b.leaveCluster();
    c.leaveCluster();
  });

  it('on its own (one node, not joined) it answers from its own sockets', () => {
    const alone = new Presence();
    alone.connected('aisha');
    expect(alone.isOnline('aisha')).toBe(true);
    expect(alone.count).toBe(1);
    alone.disconnected('aisha');
    expect(alone.isOnline('aisha')).toBe(false);
  });
});
