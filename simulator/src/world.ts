import { userStream } from '@pawhaven/contracts';
import type { EventMetadata, NewEvent } from '@pawhaven/platform';
import type { PlannedAppend, RealisticLogOptions } from './realistic-log';
import { PAD, PAD3, Rng } from './rng';
import { CITIES, AREAS, PET_NAMES } from './texts';
import {
  ACTIVE,
  DELETED,
  AVAILABLE,
  TaskQueue,
  Pool,
  Ring,
  type User,
  type Post,
  type Like,
  type Ad,
  type AdRequest,
  type Conversation,
} from './state';

export const SEC = 1000;
export const MIN = 60 * SEC;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/**
 * The simulated world: what the simulation knows (users, posts, ads, conversations, who was notified), its clock and
 * task queue, and the plumbing every action goes through (timestamps, events, appends with their dependencies).
 * The actions are functions over it, one module per part of the product.
 */
export class World {
  readonly out: PlannedAppend[] = [];
  readonly rng: Rng;
  readonly tasks = new TaskQueue();
  clock: number;
  appends = 0;

  readonly users: User[] = [];
  readonly admins: User[] = [];
  /** Active users, each listed as many times as they are active (a few very active users, many quiet ones). */
  tickets: number[] = [];
  active = 0;
  readonly usedKeys = new Set<string>();
  readonly keyRevs = new Map<string, number>();
  readonly usedEmails = new Set<string>();

  readonly posts = new Pool<Post>((p) => !p.deleted && p.author.status !== DELETED);
  readonly availableAds = new Pool<Ad>((a) => a.status === AVAILABLE && a.owner.status !== DELETED);
  readonly likes = new Map<number, Like>();
  readonly recentLikes = new Ring<Like>(2000);
  readonly recentRequests = new Ring<AdRequest>(2000);
  readonly conversations = new Map<number, Conversation>();
  readonly recentConversations = new Ring<Conversation>(3000);
  readonly recentRecipients = new Ring<User>(1000);
  postCount = 0;

  constructor(opts: RealisticLogOptions) {
    this.rng = new Rng(opts.seed ?? 1);
    const now = (opts.now ?? new Date()).getTime();
    this.clock = now - (opts.days ?? 185) * DAY;
  }

  private dayStart = 0;
  private dayEnd = 0;
  private dayPrefix = '';

  /** `new Date(t).toISOString()`, without a Date for the times of the current day (most of them). */
  iso(t = this.clock): string {
    if (t < this.dayStart || t >= this.dayEnd) {
      if (t !== this.clock) return new Date(t).toISOString();
      this.dayStart = t - (t % DAY);
      this.dayEnd = this.dayStart + DAY;
      this.dayPrefix = new Date(this.dayStart).toISOString().slice(0, 11);
    }
    let ms = Math.floor(t - this.dayStart);
    const h = Math.floor(ms / HOUR);
    ms -= h * HOUR;
    const m = Math.floor(ms / MIN);
    ms -= m * MIN;
    const sec = Math.floor(ms / SEC);
    ms -= sec * SEC;
    return `${this.dayPrefix}${PAD[h]}:${PAD[m]}:${PAD[sec]}.${PAD3[ms]}Z`;
  }

  ev(type: string, data: unknown, metadata: EventMetadata): NewEvent {
    return { eventId: this.rng.uuid(), type, data, metadata };
  }

  /** Records an append: `rev` is the stream's revision before it (-1: new stream); answers its index. */
  emit(streamId: string, events: NewEvent[], rev: number, deps: number[], actor?: User): number {
    const idx = this.appends++;
    const unique: number[] = [];
    for (const d of deps) if (d >= 0 && d < idx && !unique.includes(d)) unique.push(d);
    this.out.push({ streamId, events, expected: rev < 0 ? 'no_stream' : BigInt(rev), deps: unique });
    if (actor) {
      actor.recent.push(idx);
      if (actor.recent.length > 8) actor.recent.shift();
    }
    return idx;
  }

  at(delayMs: number, f: () => void): void {
    this.tasks.push(this.clock + Math.max(1, Math.round(delayMs)), f);
  }

  pickUser(): User | undefined {
    for (let attempt = 0; attempt < 8; attempt++) {
      if (this.tickets.length === 0) return undefined;
      const u = this.users[this.tickets[this.rng.int(this.tickets.length)]!]!;
      if (u.status === ACTIVE) return u;
    }
    return undefined;
  }

  pickAdmin(): User | undefined {
    const admins = this.admins.filter((a) => a.status === ACTIVE);
    return admins.length > 0 ? this.rng.pick(admins) : undefined;
  }

  fill(template: string, pet?: string): string {
    if (!template.includes('{')) return template;
    return template
      .replace('{city}', this.rng.pick(CITIES))
      .replace('{area}', this.rng.pick(AREAS))
      .replace('{pet}', pet ?? this.rng.pick(PET_NAMES));
  }

  image(): string {
    return `/api/images/${this.rng.hex(3)}`;
  }

  phone(): string {
    return `+92 3${this.rng.int(5)}${this.rng.digits(1)} ${this.rng.digits(7)}`;
  }

  passwordHash(): string {
    return `$argon2id$v=19$m=19456,t=2,p=1$${this.rng.b64(22)}$${this.rng.b64(43)}`;
  }

  userAppend(u: User, events: NewEvent[], deps: number[] = [], actor: User = u): number {
    const idx = this.emit(userStream(u.id), events, u.rev, deps, actor);
    u.rev += events.length;
    return idx;
  }
}
