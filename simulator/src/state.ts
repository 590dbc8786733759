import type { PetDetails } from '@pawhaven/contracts';
import type { Rng } from './rng';

/** What the simulation knows of its users, posts, ads and conversations, and the queues it schedules with. */

export const PENDING = 0;
export const VERIFIED = 1;
export const ACTIVE = 2;
export const DELETED = 3;

/** A session's own stream: `startIdx` is its SessionStarted append's index. */
export type Session = { id: string; revoked: boolean; expires: number; startIdx: number };

export type User = {
  idx: number;
  id: string;
  fullName: string;
  username: string;
  keys: string[];
  email: string;
  isVet: boolean;
  isAdmin: boolean;
  via: 'password' | 'google' | 'bootstrap';
  status: number;
  /** The user stream's revision. */
  rev: number;
  registeredAt: number;
  regId: string;
  regExpires: number;
  codeAt: number;
  codeAttempts: number;
  pendingSteps: number;
  hasPassword: boolean;
  phone: string;
  city: string;
  about: string;
  image: string | null;
  sessions: Session[];
  /** The append that made the user usable (their first session), a dependency of what they do. */
  readyIdx: number;
  /** Their latest appends, which their deletion waits for. */
  recent: number[];
  posts: Post[];
  ads: Ad[];
  comments: PostComment[];
  notifications: Notifications | null;
};

export type Post = {
  /** Numbers the posts, for the like streams' keys. */
  n: number;
  id: string;
  author: User;
  caption: string;
  deleted: boolean;
  rev: number;
  createdIdx: number;
  comments: PostComment[];
};
export type PostComment = { id: string; post: Post; author: User; deleted: boolean; idx: number };
export type Like = { post: Post; user: User; rev: number; liked: boolean; gen: number };

export const AVAILABLE = 0;
export const ADOPTED = 1;
export const AD_DELETED = 2;
export type Ad = {
  id: string;
  owner: User;
  details: PetDetails;
  status: number;
  rev: number;
  createdIdx: number;
  requests: AdRequest[];
};
type RequestStatus = 'pending' | 'accepted' | 'rejected' | 'withdrawn' | 'closed';
export type AdRequest = {
  id: string;
  ad: Ad;
  requester: User;
  status: RequestStatus;
  deleted: boolean;
  idx: number;
};

export type Conversation = {
  id: string;
  stream: string;
  members: [User, User];
  adId: string | null;
  rev: number;
  createdIdx: number;
  count: number;
  /** Per member (0, 1): their latest message. */
  lastSeq: [number, number];
  lastId: [string, string];
  delivered: [number, number];
  read: [number, number];
  busy: boolean;
};

/** A notification the notifications projection made for a user, as far as this simulation can tell it lives. */
export type NotificationRef = {
  eventId: string;
  /** The append that caused it. */
  idx: number;
  kind: 'like' | 'comment' | 'request' | 'decision';
  actor: User;
  post?: Post;
  comment?: PostComment;
  like?: Like;
  gen?: number;
  request?: AdRequest;
  read: boolean;
  deleted: boolean;
};
type Notifications = { rev: number; refs: NotificationRef[]; readAllIdx: number; deleteAllIdx: number };

type Task = { t: number; s: number; f: () => void };

/** Tasks by time (then by the order they were scheduled): the follow-ups of what users did. */
export class TaskQueue {
  private readonly heap: Task[] = [];
  private seq = 0;
  get nextTime(): number {
    return this.heap.length > 0 ? this.heap[0]!.t : Infinity;
  }
  push(t: number, f: () => void): void {
    const h = this.heap;
    const task = { t, s: this.seq++, f };
    let i = h.length;
    h.push(task);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(task, h[p]!)) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = task;
  }
  pop(): Task {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && before(h[r]!, h[l]!) ? r : l;
        if (!before(h[c]!, last)) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}
const before = (a: Task, b: Task) => a.t < b.t || (a.t === b.t && a.s < b.s);

/** Items that may die (deleted, adopted): picked mostly among the newest, the dead ones skipped and swept. */
export class Pool<T> {
  items: T[] = [];
  constructor(private readonly alive: (item: T) => boolean) {}
  add(item: T): void {
    this.items.push(item);
  }
  pick(rng: Rng, window = 400, recent = 0.75): T | undefined {
    for (let attempt = 0; attempt < 8; attempt++) {
      const n = this.items.length;
      if (n === 0) return undefined;
      const i = rng.chance(recent) ? n - 1 - rng.int(Math.min(window, n)) : rng.int(n);
      const item = this.items[i]!;
      if (this.alive(item)) return item;
    }
    if (this.items.length > 64) this.items = this.items.filter(this.alive);
    return undefined;
  }
  sweep(): void {
    this.items = this.items.filter(this.alive);
  }
}

/** A ring of the latest `size` items. */
export class Ring<T> {
  private readonly items: T[] = [];
  private next = 0;
  constructor(private readonly size: number) {}
  push(item: T): void {
    if (this.items.length < this.size) this.items.push(item);
    else this.items[this.next] = item;
    this.next = (this.next + 1) % this.size;
  }
  pick(rng: Rng): T | undefined {
    return this.items.length > 0 ? rng.pick(this.items) : undefined;
  }
}

export const pushCapped = <T>(list: T[], item: T, cap: number) => {
  list.push(item);
  if (list.length > cap * 2) list.splice(0, list.length - cap);
};
