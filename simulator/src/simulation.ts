import {
  ACCOUNT_LIMITS,
  ADOPTION_MESSAGES,
  adoptionStream,
  clinicStream,
  contactMessageStream,
  conversationStream,
  faqStream,
  ngoStream,
  notificationsStream,
  postLikeStream,
  postStream,
  teamMemberStream,
  emailClaimStream,
  userStream,
  usernameClaimStream,
  type PetDetails,
} from '@pawhaven/contracts';
import type { EventMetadata, NewEvent } from '@pawhaven/platform';
import { notificationId } from '@pawhaven/projections';
import {
  conversationIdFor,
  HOLD_GRACE_SECONDS,
  seedId,
  USERNAME_MIGRATION_STREAM,
} from '@pawhaven/command-api';
import type { PlannedAppend, RealisticLogOptions } from './realistic-log';
import { asciiUsernameKeys } from './usernames';
import { PAD, PAD3, Rng } from './rng';
import {
  FIRST_NAMES,
  LAST_NAMES,
  CITIES,
  AREAS,
  PET_NAMES,
  PET_TYPES,
  BREEDS,
  AD_FOUND,
  AD_TRAITS,
  AD_HOME,
  POST_LINES,
  VET_POST_LINES,
  POST_TAILS,
  COMMENTS,
  REPLIES,
  MESSAGES,
  REQUEST_OPENERS,
  REQUEST_HOMES,
  REQUEST_PROMISES,
  ABOUTS,
  VET_ABOUTS,
  CONTACT_MESSAGES,
  OTHER_DOMAINS,
} from './texts';
import type {
  Session,
  User,
  Post,
  PostComment,
  Like,
  Ad,
  AdRequest,
  Conversation,
  NotificationRef,
} from './state';
import {
  PENDING,
  VERIFIED,
  ACTIVE,
  DELETED,
  AVAILABLE,
  ADOPTED,
  AD_DELETED,
  TaskQueue,
  Pool,
  Ring,
  pushCapped,
} from './state';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const REGISTRATION_MS = ACCOUNT_LIMITS.registrationSeconds * SEC;
const OTP_MS = ACCOUNT_LIMITS.otpSeconds * SEC;
const RESET_CODE_MS = ACCOUNT_LIMITS.resetCodeSeconds * SEC;
const HOLD_GRACE_MS = HOLD_GRACE_SECONDS * SEC;
/** config REMEMBER_ME_DAYS default */
const REMEMBER_ME_MS = 30 * DAY;
const ADMIN_EMAIL = 'admin@pawhaven.local';
const ADMIN_USERNAME = 'admin';

/** Actions per active user and day, and the community a new user may come from before anybody is active. */
const ACTIONS_PER_USER_DAY = 0.9;
const WORD_OF_MOUTH = 12;

/** Relative activity by hour of the day in Pakistan (UTC+5). */
const HOURLY = [
  0.45, 0.3, 0.2, 0.15, 0.12, 0.15, 0.3, 0.5, 0.75, 0.95, 1.05, 1.15, 1.2, 1.2, 1.15, 1.15, 1.25, 1.35, 1.45,
  1.55, 1.6, 1.45, 1.1, 0.75,
];

export class Simulation {
  readonly out: PlannedAppend[] = [];
  private readonly rng: Rng;
  private readonly tasks = new TaskQueue();
  private clock: number;
  private appends = 0;
  private steps = 0;

  private readonly users: User[] = [];
  private readonly admins: User[] = [];
  /** Active users, each listed as many times as they are active (a few very active users, many quiet ones). */
  private tickets: number[] = [];
  private active = 0;
  private readonly usedKeys = new Set<string>();
  private readonly keyRevs = new Map<string, number>();
  private readonly usedEmails = new Set<string>();

  private readonly posts = new Pool<Post>((p) => !p.deleted && p.author.status !== DELETED);
  private readonly availableAds = new Pool<Ad>((a) => a.status === AVAILABLE && a.owner.status !== DELETED);
  private readonly likes = new Map<number, Like>();
  private readonly recentLikes = new Ring<Like>(2000);
  private readonly recentRequests = new Ring<AdRequest>(2000);
  private readonly conversations = new Map<number, Conversation>();
  private readonly recentConversations = new Ring<Conversation>(3000);
  private readonly recentRecipients = new Ring<User>(1000);
  private postCount = 0;

  private readonly actions: { weight: number; run: () => void }[];
  private readonly totalWeight: number;

  constructor(opts: RealisticLogOptions) {
    this.rng = new Rng(opts.seed ?? 1);
    const now = (opts.now ?? new Date()).getTime();
    this.clock = now - (opts.days ?? 185) * DAY;
    const deletions = (0.3 * (opts.deletionsPerMillion ?? 300)) / 300;
    // Relative weights of what an active user does next (the follow-ups — verifying, answering requests,
    // chatting on, receipts — are scheduled by the actions themselves).
    this.actions = [
      { weight: 17, run: () => this.register() },
      { weight: 36, run: () => this.signIn() },
      { weight: 12, run: () => this.signOut() },
      { weight: 11, run: () => this.updateProfile() },
      { weight: 6.5, run: () => this.changeProfileImage() },
      { weight: 0.6, run: () => this.removeProfileImage() },
      { weight: 0.4, run: () => this.changePassword() },
      { weight: 0.3, run: () => this.resetPassword() },
      { weight: 33, run: () => this.publishAd() },
      { weight: 6.5, run: () => this.updateAd() },
      { weight: 1.5, run: () => this.deleteOwnAd() },
      { weight: 88, run: () => this.requestAdoption() },
      { weight: 43, run: () => this.publishPost() },
      { weight: 2.5, run: () => this.editCaption() },
      { weight: 1.1, run: () => this.deleteOwnPost() },
      { weight: 135, run: () => this.comment() },
      { weight: 2.5, run: () => this.deleteOwnComment() },
      { weight: 265, run: () => this.like() },
      { weight: 8.5, run: () => this.unlike() },
      { weight: 12.5, run: () => this.startConversation() },
      { weight: 8, run: () => this.resumeConversation() },
      { weight: 4.5, run: () => this.readAllNotifications() },
      { weight: 1.3, run: () => this.deleteAllNotifications() },
      { weight: 3.5, run: () => this.readNotification() },
      { weight: 0.9, run: () => this.deleteNotification() },
      { weight: 2.3, run: () => this.contact(true) },
      { weight: 2.3, run: () => this.contact(false) },
      { weight: deletions, run: () => this.adminDeleteUser() },
      { weight: 0.3, run: () => this.adminDeletePost() },
      { weight: 0.45, run: () => this.adminDeleteComment() },
      { weight: 0.45, run: () => this.adminDeleteAd() },
      { weight: 0.5, run: () => this.adminDeleteRequest() },
      { weight: 0.4, run: () => this.adminSignIn() },
    ];
    this.totalWeight = this.actions.reduce((s, a) => s + a.weight, 0);
  }

  // ── plumbing ──

  private dayStart = 0;
  private dayEnd = 0;
  private dayPrefix = '';

  /** `new Date(t).toISOString()`, without a Date for the times of the current day (most of them). */
  private iso(t = this.clock): string {
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

  private ev(type: string, data: unknown, metadata: EventMetadata): NewEvent {
    return { eventId: this.rng.uuid(), type, data, metadata };
  }

  /** Records an append: `rev` is the stream's revision before it (-1: new stream); answers its index. */
  private emit(streamId: string, events: NewEvent[], rev: number, deps: number[], actor?: User): number {
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

  private at(delayMs: number, f: () => void): void {
    this.tasks.push(this.clock + Math.max(1, Math.round(delayMs)), f);
  }

  step(): void {
    if (++this.steps % 50_000 === 0) {
      this.posts.sweep();
      this.availableAds.sweep();
      this.tickets = this.tickets.filter((i) => this.users[i]!.status === ACTIVE);
    }
    const hour = Math.floor(((this.clock + 5 * HOUR) % DAY) / HOUR);
    const rate = ((this.active + WORD_OF_MOUTH) * ACTIONS_PER_USER_DAY * HOURLY[hour]!) / DAY;
    const spontaneous = this.clock + this.rng.exp(1 / rate);
    if (this.tasks.nextTime <= spontaneous) {
      const task = this.tasks.pop();
      this.clock = task.t;
      task.f();
      return;
    }
    this.clock = Math.ceil(spontaneous);
    if (this.rng.next() * (this.active + WORD_OF_MOUTH) < WORD_OF_MOUTH) {
      this.register();
      return;
    }
    let r = this.rng.next() * this.totalWeight;
    for (const a of this.actions) {
      r -= a.weight;
      if (r < 0) {
        a.run();
        return;
      }
    }
  }

  private pickUser(): User | undefined {
    for (let attempt = 0; attempt < 8; attempt++) {
      if (this.tickets.length === 0) return undefined;
      const u = this.users[this.tickets[this.rng.int(this.tickets.length)]!]!;
      if (u.status === ACTIVE) return u;
    }
    return undefined;
  }

  private pickAdmin(): User | undefined {
    const admins = this.admins.filter((a) => a.status === ACTIVE);
    return admins.length > 0 ? this.rng.pick(admins) : undefined;
  }

  private fill(template: string, pet?: string): string {
    if (!template.includes('{')) return template;
    return template
      .replace('{city}', this.rng.pick(CITIES))
      .replace('{area}', this.rng.pick(AREAS))
      .replace('{pet}', pet ?? this.rng.pick(PET_NAMES));
  }

  private image(): string {
    return `/api/images/${this.rng.hex(3)}`;
  }

  private phone(): string {
    return `+92 3${this.rng.int(5)}${this.rng.digits(1)} ${this.rng.digits(7)}`;
  }

  private passwordHash(): string {
    return `$argon2id$v=19$m=19456,t=2,p=1$${this.rng.b64(22)}$${this.rng.b64(43)}`;
  }

  // ── the start: the first process start of a fresh deployment ──

  start(): void {
    this.emit(
      USERNAME_MIGRATION_STREAM,
      [this.ev('UsernameClaimsMigrated', { accounts: 0, migrated: 0, clashes: [] }, { actorId: 'system' })],
      -1,
      [],
    );
    this.bootstrapAdmin(ADMIN_EMAIL, ADMIN_USERNAME);
    this.seedDirectory();
    // A later start with another ADMIN_EMAIL adds a second administrator.
    this.at(this.rng.range(30, 60) * DAY, () => this.bootstrapAdmin('team@pawhaven.pk', 'PawHaven Team'));
  }

  private newUser(fields: {
    fullName: string;
    username: string;
    email: string;
    isVet: boolean;
    isAdmin: boolean;
    via: User['via'];
  }): User {
    const keys = asciiUsernameKeys(fields.username);
    for (const k of keys) this.usedKeys.add(k);
    this.usedEmails.add(fields.email);
    const u: User = {
      idx: this.users.length,
      id: this.rng.uuid(),
      ...fields,
      keys,
      status: PENDING,
      rev: -1,
      registeredAt: this.clock,
      regId: '',
      regExpires: 0,
      codeAt: 0,
      codeAttempts: 0,
      pendingSteps: 0,
      hasPassword: fields.via !== 'google',
      phone: '',
      city: '',
      about: '',
      image: null,
      sessions: [],
      readyIdx: -1,
      recent: [],
      posts: [],
      ads: [],
      comments: [],
      notifications: null,
    };
    this.users.push(u);
    return u;
  }

  private claimEmail(u: User): void {
    this.emit(
      emailClaimStream(u.email),
      [this.ev('EmailClaimed', { userId: u.id }, { actorId: u.id })],
      -1,
      [],
      u,
    );
  }

  /** Appends one event to each key stream of `keys`, in key order, as holdUsername / confirmUsername do. */
  private claimKeys(u: User, keys: string[], event: (key: string) => NewEvent): void {
    for (const key of [...keys].sort()) {
      const rev = this.keyRevs.get(key) ?? -1;
      this.emit(usernameClaimStream(key), [event(key)], rev, [], u);
      this.keyRevs.set(key, rev + 1);
    }
  }

  private holdKeys(
    u: User,
    keys: string[],
    username: string,
    registrationId: string,
    expiresAt: number,
  ): void {
    this.claimKeys(u, keys, () =>
      this.ev(
        'UsernameHeld',
        { userId: u.id, registrationId, username, expiresAt: this.iso(expiresAt) },
        { actorId: u.id },
      ),
    );
  }

  private confirmKeys(u: User): void {
    this.claimKeys(u, u.keys, () =>
      this.ev('UsernameConfirmed', { userId: u.id, username: u.username }, { actorId: u.id }),
    );
  }

  private userAppend(u: User, events: NewEvent[], deps: number[] = [], actor: User = u): number {
    const idx = this.emit(userStream(u.id), events, u.rev, deps, actor);
    u.rev += events.length;
    return idx;
  }

  private bootstrapAdmin(email: string, username: string): void {
    const u = this.newUser({
      fullName: username,
      username,
      email,
      isVet: false,
      isAdmin: true,
      via: 'bootstrap',
    });
    this.claimEmail(u);
    this.holdKeys(u, u.keys, username, this.rng.uuid(), this.clock + HOLD_GRACE_MS);
    this.userAppend(u, [
      this.ev(
        'UserRegistered',
        {
          userId: u.id,
          username,
          usernameKeys: u.keys,
          email,
          passwordHash: this.passwordHash(),
          isVeterinarian: false,
          isAdmin: true,
          via: 'bootstrap',
          registeredAt: this.iso(),
        },
        { actorId: 'system' },
      ),
    ]);
    this.confirmKeys(u);
    u.status = VERIFIED;
    this.admins.push(u);
    this.at(this.rng.range(2, 30) * MIN, () => {
      const idx = this.startSession(u, true);
      u.readyIdx = idx;
      u.status = ACTIVE;
    });
  }

  private seedDirectory(): void {
    const at = this.iso();
    const entry = (kind: string, file: string, key: string, stream: string, type: string, data: object) =>
      this.emit(
        stream,
        [
          {
            eventId: seedId(`${kind}:${key}:event`),
            type,
            data,
            metadata: { actorId: 'system', source: `data/seed/${file}`, seedKey: key },
          },
        ],
        -1,
        [],
      );
    const ngos = [
      ['canal-paws-lahore', 'Canal Paws Collective', 'Lahore'],
      ['karachi-strays-trust', 'Karachi Strays Trust', 'Karachi'],
      ['margalla-animal-rescue', 'Margalla Animal Rescue', 'Islamabad'],
      ['multan-kindness-society', 'Multan Kindness Society', 'Multan'],
    ] as const;
    ngos.forEach(([key, name, city], order) => {
      const ngoId = seedId(`ngos:${key}`);
      entry('ngos', 'ngos.json', key, ngoStream(ngoId), 'NgoListed', {
        ngoId,
        name,
        description: `A volunteer network in ${city} that rescues injured and abandoned dogs and cats and finds them loving homes.`,
        contact: { phone: `+92 300 00000${order + 1}`, email: `hello@${key}.example.org` },
        image: '/media/directory/ngo-paw.svg',
        mission: `No animal in ${city} should suffer on the street without help.`,
        services: [
          'Street animal rescue',
          'Emergency first aid',
          'Adoption and rehoming',
          'Vaccination drives',
        ],
        order,
        listedAt: at,
      });
    });
    const clinics = [
      ['green-valley-lahore', 'Green Valley Pet Clinic', 'Model Town, Lahore'],
      ['seaside-vets-karachi', 'Seaside Veterinary Hospital', 'Clifton, Karachi'],
      ['capital-pet-care', 'Capital Pet Care', 'F-10, Islamabad'],
      ['peshawar-animal-clinic', 'Peshawar Animal Clinic', 'Hayatabad, Peshawar'],
    ] as const;
    clinics.forEach(([key, name, location], order) => {
      const clinicId = seedId(`clinics:${key}`);
      entry('clinics', 'clinics.json', key, clinicStream(clinicId), 'ClinicListed', {
        clinicId,
        name,
        location,
        image: '/media/directory/clinic-cross.svg',
        veterinarians: [
          {
            name: `Dr. ${this.rng.pick(FIRST_NAMES)} ${this.rng.pick(LAST_NAMES)}`,
            specialization: 'Small animal medicine',
          },
          {
            name: `Dr. ${this.rng.pick(FIRST_NAMES)} ${this.rng.pick(LAST_NAMES)}`,
            specialization: 'Soft tissue surgery',
          },
        ],
        servicesOffered: ['Vaccinations', 'General check-ups', 'Spay and neuter', 'Dental care'],
        contact: {
          phone: `+92 300 0000${101 + order}`,
          email: order % 2 === 0 ? `appointments@${key}.example.org` : null,
        },
        order,
        listedAt: at,
      });
    });
    const faqs = [
      [
        'how-to-adopt',
        'How do I adopt a pet on PawHaven?',
        'Open Adoption, choose a pet and press Request Adoption.',
      ],
      ['is-it-free', 'Does adopting cost anything?', 'No. PawHaven never charges for adoptions.'],
      [
        'post-an-ad',
        'How do I find a home for a pet?',
        'Sign in, open Adoption and publish an ad with a photo.',
      ],
      [
        'injured-animal',
        'I found an injured animal. What now?',
        'Call an NGO or clinic from our directory near you.',
      ],
      ['vets-badge', 'What does the vet badge mean?', 'The account belongs to a veterinarian.'],
    ] as const;
    faqs.forEach(([key, question, answer], order) => {
      const faqId = seedId(`faq:${key}`);
      entry('faq', 'faq.json', key, faqStream(faqId), 'FaqPublished', {
        faqId,
        question,
        answer,
        order,
        publishedAt: at,
      });
    });
    const team = [
      ['hira-qureshi', 'Hira Qureshi', 'Community Ambassador, Lahore'],
      ['usman-baig', 'Usman Baig', 'Rescue Coordinator, Karachi'],
      ['dr-amna-rauf', 'Dr. Amna Rauf', 'Veterinary Advisor'],
    ] as const;
    team.forEach(([key, name, role], order) => {
      const memberId = seedId(`team:${key}`);
      entry('team', 'team.json', key, teamMemberStream(memberId), 'TeamMemberAdded', {
        memberId,
        name,
        role,
        image: '/media/directory/member-teal.svg',
        summary: `${name} helps new adopters settle in with their pets.`,
        details: {
          education: ['BSc Zoology'],
          experience: ['Years of volunteering with street animal rescues'],
          achievements: ['Over 100 successful adoptions'],
          facilities: ['Transport to vet appointments'],
        },
        contact: {
          phone: `+92 300 0000${201 + order}`,
          email: `${key}@team.example.org`,
          website: `https://example.org/team/${key}`,
          location: 'Pakistan',
        },
        order,
        addedAt: at,
      });
    });
  }

  // ── accounts ──

  /**
   * A free name: a person picks another when theirs is taken (the refused sign-up leaves no trace); a Google
   * sign-up's name gets four digits added, as complete-google-registration does.
   */
  private uniqueUsername(wanted: string, google = false): string {
    const base = google ? wanted.slice(0, ACCOUNT_LIMITS.usernameMaxLength - 5) : wanted;
    let name = base;
    for (let i = 0; ; i++) {
      if (!asciiUsernameKeys(name).some((k) => this.usedKeys.has(k))) return name;
      name = google || i >= 3 ? `${base}${1000 + this.rng.int(9000)}` : `${base}${1 + this.rng.int(99)}`;
    }
  }

  private uniqueEmail(first: string, last: string): string {
    const base = `${first}.${last}`.toLowerCase();
    let email = `${base}@gmail.com`;
    while (this.usedEmails.has(email)) email = `${base}${this.rng.int(10_000)}@gmail.com`;
    return email;
  }

  /** A newcomer signs up: with a password (verified by a mailed code) or with Google. */
  register(): void {
    const first = this.rng.pick(FIRST_NAMES);
    const last = this.rng.pick(LAST_NAMES);
    const fullName = `${first} ${last}`;
    const email = this.uniqueEmail(first, last);
    const isVet = this.rng.chance(0.1);
    if (this.rng.chance(0.35)) {
      const u = this.newUser({
        fullName,
        username: this.uniqueUsername(fullName, true),
        email,
        isVet,
        isAdmin: false,
        via: 'google',
      });
      this.claimEmail(u);
      this.googleRegistration(u);
      return;
    }
    const style = this.rng.int(4);
    const base =
      style === 0
        ? `${first.toLowerCase()}_${last.toLowerCase()}`
        : style === 1
          ? `${first}${last}`
          : style === 2
            ? `${first.toLowerCase()}.${last.toLowerCase()}${this.rng.int(100)}`
            : `${first}_${this.rng.pick(['paws', 'pets', 'rescue', 'cats', 'dogs'])}`;
    const u = this.newUser({
      fullName,
      username: this.uniqueUsername(base),
      email,
      isVet,
      isAdmin: false,
      via: 'password',
    });
    this.claimEmail(u);
    this.passwordRegistration(u, u.username, null);
  }

  /**
   * POST /register: the username held for the sign-up, then UserRegistered (or RegistrationRenewed when the address
   * has a pending sign-up) with a code; a replaced sign-up's other name is released.
   */
  private passwordRegistration(
    u: User,
    username: string,
    renewing: { regId: string; keys: string[] } | null,
  ): void {
    const keys = asciiUsernameKeys(username);
    for (const k of keys) this.usedKeys.add(k);
    const regId = this.rng.uuid();
    const expires = this.clock + REGISTRATION_MS;
    this.holdKeys(u, keys, username, regId, expires + HOLD_GRACE_MS);
    const registration = { registrationId: regId, tokenHash: this.rng.hex(8), expiresAt: this.iso(expires) };
    const code = this.ev(
      'RegistrationCodeIssued',
      { codeHash: this.rng.hex(8), expiresAt: this.iso(this.clock + OTP_MS) },
      { actorId: u.id },
    );
    if (!renewing) {
      this.userAppend(u, [
        this.ev(
          'UserRegistered',
          {
            userId: u.id,
            username,
            email: u.email,
            passwordHash: this.passwordHash(),
            isVeterinarian: u.isVet,
            isAdmin: false,
            via: 'password',
            registeredAt: this.iso(),
            usernameKeys: keys,
            registration,
          },
          { actorId: u.id },
        ),
        code,
      ]);
    } else {
      this.userAppend(u, [
        this.ev(
          'RegistrationRenewed',
          {
            username,
            passwordHash: this.passwordHash(),
            isVeterinarian: u.isVet,
            usernameKeys: keys,
            registration,
            replaced: { registrationId: renewing.regId, usernameKeys: renewing.keys },
            renewedAt: this.iso(),
          },
          { actorId: u.id },
        ),
        code,
      ]);
      const released = renewing.keys.filter((k) => !keys.includes(k));
      for (const key of released) {
        const rev = this.keyRevs.get(key)!;
        this.emit(
          usernameClaimStream(key),
          [
            this.ev(
              'UsernameReleased',
              { userId: u.id, registrationId: renewing.regId, reason: 'replaced' },
              { actorId: u.id },
            ),
          ],
          rev,
          [],
          u,
        );
        this.keyRevs.set(key, rev + 1);
      }
    }
    u.username = username;
    u.keys = keys;
    u.via = 'password';
    u.hasPassword = true;
    u.regId = regId;
    u.regExpires = expires;
    u.codeAt = this.clock;
    u.codeAttempts = 0;
    u.pendingSteps = renewing ? u.pendingSteps : 0;
    if (!renewing && this.rng.chance(0.05)) {
      // Never verified: the sign-up lapses; some come back days later.
      if (this.rng.chance(0.35)) this.at(this.rng.range(1, 12) * DAY, () => this.comeBack(u));
      return;
    }
    this.pendingNext(u);
  }

  /** What a pending sign-up does next: mostly types the mailed code; sometimes fumbles first. */
  private pendingNext(u: User): void {
    const r = this.rng.next();
    const late = this.clock > u.regExpires - 15 * MIN;
    if (u.pendingSteps >= 3 || late || r < 0.87) {
      this.at(this.rng.range(15, 100) * SEC, () => this.verify(u));
      return;
    }
    u.pendingSteps++;
    if (r < 0.92)
      this.at(this.rng.range(10, 80) * SEC, () => {
        if (u.status !== PENDING || this.clock >= u.codeAt + OTP_MS) return;
        u.codeAttempts++;
        // A wrong code is refused, and the attempt recorded (RefusedWithEvents).
        this.userAppend(u, [
          this.ev('RegistrationCodeRejected', { attempt: u.codeAttempts }, { actorId: u.id }),
        ]);
        this.pendingNext(u);
      });
    else if (r < 0.95)
      this.at(this.rng.range(125, 400) * SEC, () => {
        if (u.status !== PENDING) return;
        this.userAppend(u, [
          this.ev(
            'RegistrationCodeIssued',
            { codeHash: this.rng.hex(8), expiresAt: this.iso(this.clock + OTP_MS) },
            { actorId: u.id },
          ),
        ]);
        u.codeAt = this.clock;
        u.codeAttempts = 0;
        this.pendingNext(u);
      });
    else if (r < 0.975)
      // Signs in with the pending sign-up's password in another browser: one more token and a new code.
      this.at(this.rng.range(1, 20) * MIN, () => {
        if (u.status !== PENDING) return;
        this.userAppend(u, [
          this.ev(
            'RegistrationTokenIssued',
            { registrationId: u.regId, tokenHash: this.rng.hex(8) },
            { actorId: u.id },
          ),
          this.ev(
            'RegistrationCodeIssued',
            { codeHash: this.rng.hex(8), expiresAt: this.iso(this.clock + OTP_MS) },
            { actorId: u.id },
          ),
        ]);
        u.codeAt = this.clock;
        u.codeAttempts = 0;
        this.pendingNext(u);
      });
    else
      // Signs up again before verifying (the mail did not come?): the new sign-up replaces the pending one.
      this.at(this.rng.range(2, 25) * MIN, () => {
        if (u.status !== PENDING) return;
        const username = this.rng.chance(0.3)
          ? this.uniqueUsername(`${u.username}_${this.rng.int(100)}`)
          : u.username;
        this.passwordRegistration(u, username, { regId: u.regId, keys: u.keys });
      });
  }

  private verify(u: User): void {
    if (u.status !== PENDING || this.clock >= u.regExpires) return;
    if (this.clock >= u.codeAt + OTP_MS) {
      // Too slow: the code expired; they ask for a new one and type that.
      this.userAppend(u, [
        this.ev(
          'RegistrationCodeIssued',
          { codeHash: this.rng.hex(8), expiresAt: this.iso(this.clock + OTP_MS) },
          { actorId: u.id },
        ),
      ]);
      u.codeAt = this.clock;
      u.codeAttempts = 0;
      this.at(this.rng.range(15, 100) * SEC, () => this.verify(u));
      return;
    }
    this.userAppend(u, [this.ev('EmailVerified', { verifiedAt: this.iso() }, { actorId: u.id })]);
    this.confirmKeys(u);
    u.status = VERIFIED;
    this.at(this.rng.range(5, 180) * SEC, () => this.firstSignIn(u, this.rng.chance(0.55)));
  }

  /** A lapsed sign-up's owner comes back: signs up again by password, or with Google (which takes it over). */
  private comeBack(u: User): void {
    if (u.status !== PENDING || this.clock < u.regExpires) return;
    if (this.rng.chance(0.5)) {
      this.passwordRegistration(u, u.username, { regId: u.regId, keys: u.keys });
      return;
    }
    u.username = this.uniqueUsername(u.fullName, true);
    u.keys = asciiUsernameKeys(u.username);
    for (const k of u.keys) this.usedKeys.add(k);
    this.googleRegistration(u);
  }

  /** POST /complete-google-registration: hold, register (verified), confirm, sign in (remember me). */
  private googleRegistration(u: User): void {
    this.holdKeys(u, u.keys, u.username, this.rng.uuid(), this.clock + HOLD_GRACE_MS);
    this.userAppend(u, [
      this.ev(
        'UserRegistered',
        {
          userId: u.id,
          username: u.username,
          usernameKeys: u.keys,
          email: u.email,
          passwordHash: null,
          isVeterinarian: u.isVet,
          isAdmin: false,
          via: 'google',
          googleSubject: `1${this.rng.digits(20)}`,
          registeredAt: this.iso(),
        },
        { actorId: u.id },
      ),
    ]);
    u.via = 'google';
    u.hasPassword = false;
    this.confirmKeys(u);
    u.status = VERIFIED;
    this.firstSignIn(u, true);
  }

  private startSession(u: User, rememberMe: boolean): number {
    const s: Session = {
      id: this.rng.uuid(),
      revoked: false,
      expires: this.clock + (rememberMe ? REMEMBER_ME_MS : DAY),
    };
    u.sessions.push(s);
    return this.userAppend(u, [
      this.ev(
        'SessionStarted',
        {
          sessionId: s.id,
          secretHash: this.rng.hex(8),
          expiresAt: this.iso(s.expires),
          rememberMe,
          startedAt: this.iso(),
        },
        { actorId: u.id },
      ),
    ]);
  }

  /** The first sign-in; the user takes part a little later (their first page loads). */
  private firstSignIn(u: User, rememberMe: boolean): void {
    if (u.status !== VERIFIED) return;
    u.readyIdx = this.startSession(u, rememberMe);
    this.at(this.rng.range(10, 300) * SEC, () => {
      if (u.status !== VERIFIED) return;
      u.status = ACTIVE;
      this.active++;
      // Activity is skewed: most users are quiet, a few do a lot.
      const r = this.rng.next();
      const weight = r < 0.55 ? 1 : r < 0.85 ? 2 : r < 0.97 ? 5 : 12;
      for (let i = 0; i < weight; i++) this.tickets.push(u.idx);
    });
  }

  signIn(): void {
    const u = this.pickUser();
    if (!u) return;
    this.startSession(u, u.via === 'google' || this.rng.chance(0.55));
  }

  adminSignIn(): void {
    const a = this.pickAdmin();
    if (a) this.startSession(a, true);
  }

  signOut(): void {
    const u = this.pickUser();
    if (!u) return;
    for (let i = u.sessions.length - 1; i >= 0; i--) {
      const s = u.sessions[i]!;
      if (s.revoked || s.expires <= this.clock) continue;
      s.revoked = true;
      this.userAppend(u, [
        this.ev('SessionRevoked', { sessionId: s.id, revokedAt: this.iso() }, { actorId: u.id }),
      ]);
      return;
    }
  }

  updateProfile(): void {
    const u = this.pickUser();
    if (!u) return;
    // Fields left out keep their value; the event carries all three.
    if (u.city === '' || this.rng.chance(0.5)) u.city = this.rng.pick(CITIES);
    if (u.phone === '' ? this.rng.chance(0.7) : this.rng.chance(0.2)) u.phone = this.phone();
    if (u.about === '' || this.rng.chance(0.5))
      u.about = this.fill(this.rng.pick(u.isVet ? VET_ABOUTS : ABOUTS));
    this.userAppend(u, [
      this.ev('ProfileUpdated', { phone: u.phone, city: u.city, about: u.about }, { actorId: u.id }),
    ]);
  }

  changeProfileImage(): void {
    const u = this.pickUser();
    if (!u) return;
    u.image = this.image();
    this.userAppend(u, [this.ev('ProfileImageChanged', { profileImage: u.image }, { actorId: u.id })]);
  }

  removeProfileImage(): void {
    const u = this.pickUser();
    if (!u?.image) return;
    u.image = null;
    this.userAppend(u, [this.ev('ProfileImageRemoved', {}, { actorId: u.id })]);
  }

  changePassword(): void {
    const u = this.pickUser();
    if (!u?.hasPassword) return;
    this.userAppend(u, [
      this.ev(
        'PasswordChanged',
        { passwordHash: this.passwordHash(), changedAt: this.iso() },
        { actorId: u.id },
      ),
    ]);
  }

  /** Forgot password: a code, the code verified, the new password (every session ends), then a sign-in. */
  resetPassword(): void {
    const u = this.pickUser();
    if (!u?.hasPassword) return;
    this.userAppend(u, [
      this.ev(
        'PasswordResetCodeIssued',
        { codeHash: this.rng.hex(8), expiresAt: this.iso(this.clock + RESET_CODE_MS) },
        { actorId: u.id },
      ),
    ]);
    this.at(this.rng.range(40, 240) * SEC, () => {
      if (u.status !== ACTIVE) return;
      this.userAppend(u, [
        this.ev('PasswordResetCodeVerified', { verifiedAt: this.iso() }, { actorId: u.id }),
      ]);
      this.at(this.rng.range(20, 150) * SEC, () => {
        if (u.status !== ACTIVE) return;
        this.userAppend(u, [
          this.ev(
            'PasswordReset',
            { passwordHash: this.passwordHash(), resetAt: this.iso() },
            { actorId: u.id },
          ),
        ]);
        for (const s of u.sessions) s.revoked = true;
        this.at(this.rng.range(20, 120) * SEC, () => {
          if (u.status === ACTIVE) this.startSession(u, this.rng.chance(0.55));
        });
      });
    });
  }

  // ── adoption ──

  private petDetails(owner: User): PetDetails {
    const petType = this.rng.pick(PET_TYPES);
    const name = this.rng.pick(PET_NAMES);
    const maybe = <T>(value: () => T): T | null => (this.rng.chance(0.25) ? null : value());
    const young = this.rng.chance(0.4);
    return {
      name,
      age: String(young ? 1 + this.rng.int(11) : 1 + this.rng.int(10)),
      ageUnit: young ? (this.rng.chance(0.8) ? 'months' : 'weeks') : 'yrs',
      petType,
      breed: this.rng.pick(BREEDS[petType]),
      gender: maybe(() => this.rng.pick(['Male', 'Female', 'Unknown'] as const)),
      size: maybe(() => this.rng.pick(['Small', 'Medium', 'Large'] as const)),
      vaccinated: maybe(() => this.rng.chance(0.7)),
      spayedNeutered: maybe(() => this.rng.chance(0.4)),
      goodWithChildren: maybe(() => this.rng.chance(0.8)),
      goodWithDogs: maybe(() => this.rng.chance(0.6)),
      goodWithCats: maybe(() => this.rng.chance(0.6)),
      description:
        `${name} ${this.rng.pick(AD_FOUND)}. ${this.rng.pick(AD_TRAITS)} ${this.rng.pick(AD_HOME)}`.trim(),
      location: this.rng.chance(0.5)
        ? `${this.rng.pick(AREAS)}, ${owner.city || this.rng.pick(CITIES)}`
        : owner.city || this.rng.pick(CITIES),
      imageUrl: this.image(),
    };
  }

  private adAppend(ad: Ad, events: NewEvent[], deps: number[], actor: User): number {
    const idx = this.emit(adoptionStream(ad.id), events, ad.rev, deps, actor);
    ad.rev += events.length;
    return idx;
  }

  publishAd(): void {
    const owner = this.pickUser();
    if (!owner) return;
    const ad: Ad = {
      id: this.rng.uuid(),
      owner,
      details: this.petDetails(owner),
      status: AVAILABLE,
      rev: -1,
      createdIdx: -1,
      requests: [],
    };
    ad.createdIdx = this.adAppend(
      ad,
      [
        this.ev(
          'AdoptionAdPublished',
          { adId: ad.id, ownerId: owner.id, details: ad.details, publishedAt: this.iso() },
          { actorId: owner.id },
        ),
      ],
      [owner.readyIdx],
      owner,
    );
    owner.ads.push(ad);
    this.at(this.rng.range(20, 600) * SEC, () => this.availableAds.add(ad));
  }

  private ownAd(u: User): Ad | undefined {
    const live = u.ads.filter((a) => a.status !== AD_DELETED);
    return live.length > 0 ? this.rng.pick(live) : undefined;
  }

  updateAd(): void {
    const owner = this.pickUser();
    const ad = owner && this.ownAd(owner);
    if (!owner || !ad) return;
    const d = ad.details;
    const proposed: Partial<PetDetails> = {};
    const n = 1 + this.rng.int(3);
    for (let i = 0; i < n; i++) {
      switch (this.rng.int(6)) {
        case 0:
          proposed.description = `${d.description} ${this.rng.pick(AD_TRAITS)}`.slice(0, 900);
          break;
        case 1:
          proposed.vaccinated = true;
          break;
        case 2:
          proposed.spayedNeutered = true;
          break;
        case 3:
          proposed.imageUrl = this.image();
          break;
        case 4:
          proposed.location = `${this.rng.pick(AREAS)}, ${owner.city || this.rng.pick(CITIES)}`;
          break;
        default:
          proposed.age = String(Number(d.age) + 1);
      }
    }
    // Only what differs is recorded (the decider drops the rest).
    const changes = Object.fromEntries(
      Object.entries(proposed).filter(([k, v]) => d[k as keyof PetDetails] !== v),
    ) as Partial<PetDetails>;
    if (Object.keys(changes).length === 0) return;
    this.adAppend(
      ad,
      [this.ev('AdoptionAdUpdated', { changes, updatedAt: this.iso() }, { actorId: owner.id })],
      [owner.readyIdx],
      owner,
    );
    ad.details = { ...d, ...changes };
  }

  /** DeleteAd: the ad, and each of its open requests closed with it. */
  private deleteAd(ad: Ad, actor: User): void {
    const at = this.iso();
    // One metadata object per append, as handleCommand gives every event of it.
    const metadata = { actorId: actor.id };
    const events = [this.ev('AdoptionAdDeleted', { deletedAt: at, byAdmin: actor !== ad.owner }, metadata)];
    for (const r of ad.requests)
      if (r.status === 'pending' && !r.deleted) {
        r.status = 'closed';
        events.push(
          this.ev(
            'AdoptionRequestClosed',
            { requestId: r.id, reason: ADOPTION_MESSAGES.adDeleted, closedAt: at },
            metadata,
          ),
        );
      }
    ad.status = AD_DELETED;
    this.adAppend(ad, events, [actor.readyIdx, ad.createdIdx], actor);
  }

  deleteOwnAd(): void {
    const owner = this.pickUser();
    const ad = owner && this.ownAd(owner);
    if (owner && ad) this.deleteAd(ad, owner);
  }

  adminDeleteAd(): void {
    const admin = this.pickAdmin();
    const ad = this.availableAds.pick(this.rng);
    if (admin && ad) this.deleteAd(ad, admin);
  }

  requestAdoption(): void {
    const ad = this.availableAds.pick(this.rng, 600, 0.7);
    if (!ad) return;
    let requester: User | undefined;
    for (let attempt = 0; attempt < 4 && !requester; attempt++) {
      const u = this.pickUser();
      if (!u || u === ad.owner) continue;
      if (ad.requests.some((r) => r.requester === u && r.status === 'pending' && !r.deleted)) continue;
      requester = u;
    }
    if (!requester) return;
    const u = requester;
    const pet = ad.details.name;
    const request: AdRequest = {
      id: this.rng.uuid(),
      ad,
      requester: u,
      status: 'pending',
      deleted: false,
      idx: -1,
    };
    const message = [
      this.fill(this.rng.pick(REQUEST_OPENERS), pet),
      this.fill(this.rng.pick(REQUEST_HOMES), pet),
      this.rng.pick(REQUEST_PROMISES),
    ].join(' ');
    const event = this.ev(
      'AdoptionRequested',
      {
        requestId: request.id,
        requesterId: u.id,
        name: u.fullName,
        email: u.email,
        phone: u.phone || this.phone(),
        message,
        petHistoryImage: this.rng.chance(0.25) ? this.image() : null,
        requestedAt: this.iso(),
      },
      { actorId: u.id },
    );
    request.idx = this.adAppend(ad, [event], [u.readyIdx, ad.createdIdx], u);
    ad.requests.push(request);
    this.recentRequests.push(request);
    this.notify(ad.owner, { eventId: event.eventId!, idx: request.idx, kind: 'request', actor: u, request });
    // The owner answers some requests (most answers come within a day or two); some requesters withdraw.
    if (this.rng.chance(0.6)) this.at(this.rng.exp(20 * HOUR) + 10 * MIN, () => this.answer(request));
    else if (this.rng.chance(0.12)) this.at(this.rng.exp(30 * HOUR) + 30 * MIN, () => this.withdraw(request));
  }

  private visible(r: AdRequest): boolean {
    return (
      !r.deleted && r.status === 'pending' && r.requester.status !== DELETED && r.ad.owner.status !== DELETED
    );
  }

  private answer(r: AdRequest): void {
    const ad = r.ad;
    if (!this.visible(r) || ad.status !== AVAILABLE || ad.owner.status !== ACTIVE) return;
    const owner = ad.owner;
    const at = this.iso();
    const metadata = { actorId: owner.id };
    if (this.rng.chance(0.5)) {
      const accepted = this.ev('AdoptionRequestAccepted', { requestId: r.id, acceptedAt: at }, metadata);
      const events = [
        accepted,
        this.ev('PetAdopted', { requestId: r.id, adopterId: r.requester.id, adoptedAt: at }, metadata),
      ];
      const declined: [AdRequest, NewEvent][] = [];
      for (const other of ad.requests)
        if (other !== r && other.status === 'pending' && !other.deleted) {
          other.status = 'rejected';
          const e = this.ev(
            'AdoptionRequestRejected',
            { requestId: other.id, reason: ADOPTION_MESSAGES.anotherAccepted, rejectedAt: at },
            metadata,
          );
          events.push(e);
          declined.push([other, e]);
        }
      r.status = 'accepted';
      ad.status = ADOPTED;
      const idx = this.adAppend(ad, events, [owner.readyIdx], owner);
      this.notify(r.requester, {
        eventId: accepted.eventId!,
        idx,
        kind: 'decision',
        actor: owner,
        request: r,
      });
      for (const [other, e] of declined)
        this.notify(other.requester, {
          eventId: e.eventId!,
          idx,
          kind: 'decision',
          actor: owner,
          request: other,
        });
      // The new family and the owner arrange the hand-over.
      if (this.rng.chance(0.3))
        this.at(this.rng.range(1, 60) * MIN, () => this.openChat(r.requester, owner, ad));
      return;
    }
    r.status = 'rejected';
    const e = this.ev(
      'AdoptionRequestRejected',
      { requestId: r.id, reason: ADOPTION_MESSAGES.declinedByOwner, rejectedAt: at },
      metadata,
    );
    const idx = this.adAppend(ad, [e], [owner.readyIdx], owner);
    this.notify(r.requester, { eventId: e.eventId!, idx, kind: 'decision', actor: owner, request: r });
  }

  private withdraw(r: AdRequest): void {
    if (!this.visible(r) || r.ad.status === AD_DELETED || r.requester.status !== ACTIVE) return;
    r.status = 'withdrawn';
    const u = r.requester;
    this.adAppend(
      r.ad,
      [this.ev('AdoptionRequestWithdrawn', { requestId: r.id, withdrawnAt: this.iso() }, { actorId: u.id })],
      [u.readyIdx],
      u,
    );
  }

  adminDeleteRequest(): void {
    const admin = this.pickAdmin();
    const r = this.recentRequests.pick(this.rng);
    if (!admin || !r || r.deleted || r.requester.status === DELETED || r.ad.owner.status === DELETED) return;
    r.deleted = true;
    this.adAppend(
      r.ad,
      [
        this.ev(
          'AdoptionRequestDeleted',
          { requestId: r.id, requesterId: r.requester.id, deletedBy: admin.id, deletedAt: this.iso() },
          { actorId: admin.id },
        ),
      ],
      [admin.readyIdx],
      admin,
    );
  }

  // ── community ──

  private postAppend(post: Post, events: NewEvent[], deps: number[], actor: User): number {
    const idx = this.emit(postStream(post.id), events, post.rev, deps, actor);
    post.rev += events.length;
    return idx;
  }

  private caption(u: User): string {
    const line = u.isVet && this.rng.chance(0.6) ? this.rng.pick(VET_POST_LINES) : this.rng.pick(POST_LINES);
    return this.fill(line) + this.rng.pick(POST_TAILS);
  }

  publishPost(): void {
    const author = this.pickUser();
    if (!author) return;
    const post: Post = {
      n: this.postCount++,
      id: this.rng.uuid(),
      author,
      caption: this.caption(author),
      deleted: false,
      rev: -1,
      createdIdx: -1,
      comments: [],
    };
    post.createdIdx = this.postAppend(
      post,
      [
        this.ev(
          'PostPublished',
          {
            postId: post.id,
            authorId: author.id,
            authorIsVeterinarian: author.isVet,
            caption: post.caption,
            imageUrl: this.image(),
            publishedAt: this.iso(),
          },
          { actorId: author.id },
        ),
      ],
      [author.readyIdx],
      author,
    );
    pushCapped(author.posts, post, 20);
    this.at(this.rng.range(5, 120) * SEC, () => this.posts.add(post));
  }

  private ownPost(u: User): Post | undefined {
    const live = u.posts.filter((p) => !p.deleted);
    return live.length > 0 ? this.rng.pick(live) : undefined;
  }

  editCaption(): void {
    const u = this.pickUser();
    const post = u && this.ownPost(u);
    if (!u || !post) return;
    const caption = this.rng.chance(0.5)
      ? `${post.caption} (edit: ${this.rng.pick(REPLIES)})`
      : this.caption(u);
    if (caption === post.caption) return;
    post.caption = caption;
    this.postAppend(
      post,
      [
        this.ev(
          'PostCaptionEdited',
          { postId: post.id, authorId: u.id, caption, editedAt: this.iso() },
          { actorId: u.id },
        ),
      ],
      [u.readyIdx],
      u,
    );
  }

  private deletePost(post: Post, actor: User): void {
    post.deleted = true;
    this.postAppend(
      post,
      [
        this.ev(
          'PostDeleted',
          {
            postId: post.id,
            authorId: post.author.id,
            actorId: actor.id,
            byAdmin: actor !== post.author,
            deletedAt: this.iso(),
          },
          { actorId: actor.id },
        ),
      ],
      [actor.readyIdx],
      actor,
    );
  }

  deleteOwnPost(): void {
    const u = this.pickUser();
    const post = u && this.ownPost(u);
    if (u && post) this.deletePost(post, u);
  }

  adminDeletePost(): void {
    const admin = this.pickAdmin();
    const post = this.posts.pick(this.rng, 2000, 0.5);
    if (admin && post) this.deletePost(post, admin);
  }

  comment(): void {
    const post = this.posts.pick(this.rng, 300, 0.8);
    if (!post) return;
    // The latest few comments still shown: what a reply answers.
    const live: PostComment[] = [];
    for (let i = post.comments.length - 1; i >= 0 && live.length < 6; i--) {
      const c = post.comments[i]!;
      if (!c.deleted && c.author.status !== DELETED) live.push(c);
    }
    const author =
      live.length > 0 && this.rng.chance(0.15) && post.author.status === ACTIVE
        ? post.author
        : this.pickUser();
    if (!author) return;
    const parent = live.length > 0 && this.rng.chance(0.35) ? this.rng.pick(live) : null;
    const c: PostComment = { id: this.rng.uuid(), post, author, deleted: false, idx: -1 };
    const content = parent ? this.fill(this.rng.pick(REPLIES)) : this.fill(this.rng.pick(COMMENTS));
    const event = this.ev(
      'CommentAdded',
      {
        commentId: c.id,
        postId: post.id,
        postAuthorId: post.author.id,
        authorId: author.id,
        content,
        parentCommentId: parent?.id ?? null,
        parentAuthorId: parent?.author.id ?? null,
        addedAt: this.iso(),
      },
      { actorId: author.id },
    );
    c.idx = this.postAppend(post, [event], [author.readyIdx, post.createdIdx], author);
    post.comments.push(c);
    pushCapped(author.comments, c, 20);
    const ref = {
      eventId: event.eventId!,
      idx: c.idx,
      kind: 'comment' as const,
      actor: author,
      post,
      comment: c,
    };
    if (post.author !== author) this.notify(post.author, ref);
    if (parent && parent.author !== author && parent.author !== post.author) this.notify(parent.author, ref);
  }

  private deleteComment(c: PostComment, actor: User): void {
    c.deleted = true;
    this.postAppend(
      c.post,
      [
        this.ev(
          'CommentDeleted',
          {
            commentId: c.id,
            postId: c.post.id,
            authorId: c.author.id,
            actorId: actor.id,
            byAdmin: actor !== c.author,
            deletedAt: this.iso(),
          },
          { actorId: actor.id },
        ),
      ],
      [actor.readyIdx],
      actor,
    );
  }

  deleteOwnComment(): void {
    const u = this.pickUser();
    if (!u) return;
    const live = u.comments.filter((c) => !c.deleted && !c.post.deleted && c.post.author.status !== DELETED);
    if (live.length > 0) this.deleteComment(this.rng.pick(live), u);
  }

  adminDeleteComment(): void {
    const admin = this.pickAdmin();
    const post = this.posts.pick(this.rng, 1000, 0.7);
    if (!admin || !post) return;
    const live = post.comments.filter((c) => !c.deleted && c.author.status !== DELETED);
    if (live.length > 0) this.deleteComment(this.rng.pick(live), admin);
  }

  private likeAppend(like: Like, type: 'PostLiked' | 'PostUnliked'): { idx: number; event: NewEvent } {
    const { post, user } = like;
    const at = this.iso();
    const event = this.ev(
      type,
      type === 'PostLiked'
        ? { postId: post.id, postAuthorId: post.author.id, userId: user.id, likedAt: at }
        : { postId: post.id, postAuthorId: post.author.id, userId: user.id, unlikedAt: at },
      { actorId: user.id },
    );
    const idx = this.emit(
      postLikeStream(post.id, user.id),
      [event],
      like.rev,
      [user.readyIdx, post.createdIdx],
      user,
    );
    like.rev++;
    like.liked = type === 'PostLiked';
    return { idx, event };
  }

  like(): void {
    const post = this.posts.pick(this.rng, 300, 0.8);
    if (!post) return;
    for (let attempt = 0; attempt < 3; attempt++) {
      const user = this.pickUser();
      if (!user || user === post.author) continue;
      const key = post.n * 4_194_304 + user.idx;
      let like = this.likes.get(key);
      if (like?.liked) continue;
      if (!like) this.likes.set(key, (like = { post, user, rev: -1, liked: false, gen: 0 }));
      const { idx, event } = this.likeAppend(like, 'PostLiked');
      like.gen++;
      this.recentLikes.push(like);
      this.notify(post.author, {
        eventId: event.eventId!,
        idx,
        kind: 'like',
        actor: user,
        post,
        like,
        gen: like.gen,
      });
      return;
    }
  }

  unlike(): void {
    const like = this.recentLikes.pick(this.rng);
    if (
      !like?.liked ||
      like.post.deleted ||
      like.post.author.status === DELETED ||
      like.user.status !== ACTIVE
    )
      return;
    this.likeAppend(like, 'PostUnliked');
  }

  // ── chat ──

  private convAppend(c: Conversation, events: NewEvent[], deps: number[], actor: User): number {
    const idx = this.emit(c.stream, events, c.rev, deps, actor);
    c.rev += events.length;
    return idx;
  }

  startConversation(): void {
    if (this.rng.chance(0.55)) {
      // From an adoption card: a requester writes to the owner about the pet.
      const r = this.recentRequests.pick(this.rng);
      if (r && r.requester.status === ACTIVE && r.ad.owner.status === ACTIVE && r.ad.status !== AD_DELETED)
        this.openChat(r.requester, r.ad.owner, r.ad);
      return;
    }
    // From a post: someone writes to its author.
    const starter = this.pickUser();
    const post = this.posts.pick(this.rng, 1000, 0.7);
    if (starter && post && post.author !== starter && post.author.status === ACTIVE)
      this.openChat(starter, post.author, null);
  }

  /** POST /conversations: finds or starts the pair's conversation (about an ad, when opened from one). */
  private openChat(starter: User, other: User, ad: Ad | null): void {
    if (starter.status !== ACTIVE || other.status !== ACTIVE || (ad && ad.status === AD_DELETED)) return;
    const key =
      starter.idx < other.idx ? starter.idx * 4_194_304 + other.idx : other.idx * 4_194_304 + starter.idx;
    let c = this.conversations.get(key);
    const adId = ad?.id ?? null;
    const deps = [starter.readyIdx, other.readyIdx, ad?.createdIdx ?? -1];
    if (!c) {
      const id = conversationIdFor(starter.id, other.id);
      c = {
        id,
        stream: conversationStream(id),
        members: [starter, other],
        adId,
        rev: -1,
        createdIdx: -1,
        count: 0,
        lastSeq: [0, 0],
        lastId: ['', ''],
        delivered: [0, 0],
        read: [0, 0],
        busy: false,
      };
      this.conversations.set(key, c);
      c.createdIdx = this.convAppend(
        c,
        [
          this.ev(
            'ConversationStarted',
            {
              conversationId: id,
              memberIds: [starter.id, other.id],
              startedBy: starter.id,
              adId,
              startedAt: this.iso(),
            },
            { actorId: starter.id },
          ),
        ],
        deps,
        starter,
      );
      this.recentConversations.push(c);
    } else if (adId && adId !== c.adId) {
      c.adId = adId;
      this.convAppend(
        c,
        [
          this.ev(
            'ConversationAboutAd',
            { conversationId: c.id, adId, by: starter.id, at: this.iso() },
            { actorId: starter.id },
          ),
        ],
        deps,
        starter,
      );
    }
    if (c.busy) return;
    c.busy = true;
    const side = c.members[0] === starter ? 0 : 1;
    this.at(this.rng.range(3, 90) * SEC, () => this.chat(c, side));
  }

  resumeConversation(): void {
    const c = this.recentConversations.pick(this.rng);
    if (!c || c.busy || c.members[0].status !== ACTIVE || c.members[1].status !== ACTIVE) return;
    c.busy = true;
    this.chat(c, this.rng.int(2));
  }

  /** One message of a back-and-forth: the sender first reads what came in, then writes; the other may answer. */
  private chat(c: Conversation, side: number): void {
    const [a, b] = c.members;
    if (a.status !== ACTIVE || b.status !== ACTIVE) {
      c.busy = false;
      return;
    }
    const sender = c.members[side]!;
    const other = 1 - side;
    if (c.lastSeq[other]! > c.read[side]! && this.rng.chance(0.6)) this.receipt(c, side, 'MessagesRead');
    const messageId = this.rng.uuid();
    this.convAppend(
      c,
      [
        this.ev(
          'MessageSent',
          {
            conversationId: c.id,
            messageId,
            senderId: sender.id,
            recipientId: c.members[other]!.id,
            text: this.fill(this.rng.pick(MESSAGES)),
            clientMessageId: this.rng.uuid(),
            sentAt: this.iso(),
          },
          { actorId: sender.id },
        ),
      ],
      [sender.readyIdx],
      sender,
    );
    c.count++;
    c.lastSeq[side] = c.count;
    c.lastId[side] = messageId;
    if (this.rng.chance(0.3))
      this.at(this.rng.range(1, 40) * SEC, () => this.receipt(c, other, 'MessagesDelivered'));
    if (this.rng.chance(0.82)) {
      const next = this.rng.chance(0.7) ? other : side;
      this.at(this.rng.exp(4 * MIN) + 5 * SEC, () => this.chat(c, next));
      return;
    }
    c.busy = false;
    if (this.rng.chance(0.45))
      this.at(this.rng.exp(6 * HOUR) + MIN, () => this.receipt(c, other, 'MessagesRead'));
  }

  /** The member `side` has received / seen the other's messages: recorded only when it moves their mark. */
  private receipt(c: Conversation, side: number, type: 'MessagesDelivered' | 'MessagesRead'): void {
    const u = c.members[side]!;
    if (u.status !== ACTIVE || c.members[1 - side]!.status === DELETED) return;
    const seq = c.lastSeq[1 - side]!;
    const mark = type === 'MessagesRead' ? c.read : c.delivered;
    if (seq === 0 || seq <= mark[side]!) return;
    this.convAppend(
      c,
      [
        this.ev(
          type,
          { conversationId: c.id, userId: u.id, upToMessageId: c.lastId[1 - side]!, at: this.iso() },
          { actorId: u.id },
        ),
      ],
      [u.readyIdx],
      u,
    );
    mark[side] = seq;
    if (type === 'MessagesRead' && c.delivered[side]! < seq) c.delivered[side] = seq;
  }

  // ── notifications ──

  private notify(recipient: User, ref: Omit<NotificationRef, 'read' | 'deleted'>): void {
    if (recipient.status === DELETED || recipient.isAdmin) return;
    const n = (recipient.notifications ??= { rev: -1, refs: [], readAllIdx: -1, deleteAllIdx: -1 });
    // Every ref of one shape (a spread of the optional fields would make them many).
    const full: NotificationRef = {
      eventId: ref.eventId,
      idx: ref.idx,
      kind: ref.kind,
      actor: ref.actor,
      post: ref.post,
      comment: ref.comment,
      like: ref.like,
      gen: ref.gen,
      request: ref.request,
      read: false,
      deleted: false,
    };
    pushCapped(n.refs, full, 6);
    this.recentRecipients.push(recipient);
  }

  /** Whether the notifications projection still shows it (as far as this simulation knows). */
  private shows(u: User, ref: NotificationRef): boolean {
    const n = u.notifications!;
    if (ref.deleted || ref.idx < n.deleteAllIdx || ref.actor.status === DELETED) return false;
    switch (ref.kind) {
      case 'like':
        return (
          !ref.post!.deleted &&
          ref.post!.author.status !== DELETED &&
          ref.like!.liked &&
          ref.like!.gen === ref.gen
        );
      case 'comment':
        return !ref.post!.deleted && ref.post!.author.status !== DELETED && !ref.comment!.deleted;
      case 'request':
      case 'decision':
        return (
          !ref.request!.deleted &&
          ref.request!.requester.status !== DELETED &&
          ref.request!.ad.owner.status !== DELETED
        );
    }
  }

  private unread(u: User, ref: NotificationRef): boolean {
    return !ref.read && ref.idx >= u.notifications!.readAllIdx && this.shows(u, ref);
  }

  private notificationsAppend(u: User, type: string, data: object, deps: number[]): number {
    const n = u.notifications!;
    const idx = this.emit(
      notificationsStream(u.id),
      [this.ev(type, data, { actorId: u.id })],
      n.rev,
      deps,
      u,
    );
    n.rev++;
    return idx;
  }

  private recipient(): User | undefined {
    const u = this.recentRecipients.pick(this.rng);
    return u && u.status === ACTIVE && u.notifications ? u : undefined;
  }

  readAllNotifications(): void {
    const u = this.recipient();
    const unread = u?.notifications!.refs.filter((r) => this.unread(u, r));
    if (!u || !unread?.length) return;
    u.notifications!.readAllIdx = this.notificationsAppend(
      u,
      'AllNotificationsRead',
      { userId: u.id, at: this.iso() },
      [u.readyIdx, ...unread.map((r) => r.idx)],
    );
  }

  deleteAllNotifications(): void {
    const u = this.recipient();
    const shown = u?.notifications!.refs.filter((r) => this.shows(u, r));
    if (!u || !shown?.length) return;
    u.notifications!.deleteAllIdx = this.notificationsAppend(
      u,
      'AllNotificationsDeleted',
      { userId: u.id, at: this.iso() },
      [u.readyIdx, ...shown.map((r) => r.idx)],
    );
    u.notifications!.refs = [];
  }

  /** NotificationRead / NotificationDeleted name the notification by the id the projection derives. */
  readNotification(): void {
    const u = this.recipient();
    const ref = u?.notifications!.refs.filter((r) => this.unread(u, r)).pop();
    if (!u || !ref) return;
    ref.read = true;
    this.notificationsAppend(
      u,
      'NotificationRead',
      { userId: u.id, notificationId: notificationId(ref.eventId, u.id), at: this.iso() },
      [u.readyIdx, ref.idx],
    );
  }

  deleteNotification(): void {
    const u = this.recipient();
    const shown = u?.notifications!.refs.filter((r) => this.shows(u, r));
    if (!u || !shown?.length) return;
    const ref = this.rng.pick(shown);
    ref.deleted = true;
    this.notificationsAppend(
      u,
      'NotificationDeleted',
      { userId: u.id, notificationId: notificationId(ref.eventId, u.id), at: this.iso() },
      [u.readyIdx, ref.idx],
    );
  }

  // ── contact and administration ──

  contact(signedIn: boolean): void {
    const u = signedIn ? this.pickUser() : undefined;
    if (signedIn && !u) return;
    const messageId = this.rng.uuid();
    const name = u ? u.fullName : `${this.rng.pick(FIRST_NAMES)} ${this.rng.pick(LAST_NAMES)}`;
    const email = u
      ? u.email
      : `${name.toLowerCase().replace(' ', '.')}${this.rng.int(1000)}@${this.rng.pick(OTHER_DOMAINS)}`;
    this.emit(
      contactMessageStream(messageId),
      [
        this.ev(
          'ContactMessageReceived',
          {
            messageId,
            name,
            email,
            message: this.fill(this.rng.pick(CONTACT_MESSAGES)),
            userId: u?.id ?? null,
            receivedAt: this.iso(),
          },
          u ? { actorId: u.id } : {},
        ),
      ],
      -1,
      u ? [u.readyIdx] : [],
      u,
    );
  }

  /** DeleteUser: every open session ends in the same append; the account is gone for good. */
  adminDeleteUser(): void {
    const admin = this.pickAdmin();
    const u = this.pickUser();
    if (!admin || !u || this.clock - u.registeredAt < DAY) return;
    const at = this.iso();
    const metadata = { actorId: admin.id };
    const events: NewEvent[] = [];
    for (const s of u.sessions)
      if (!s.revoked) {
        s.revoked = true;
        events.push(this.ev('SessionRevoked', { sessionId: s.id, revokedAt: at }, metadata));
      }
    events.push(this.ev('UserDeleted', { userId: u.id, deletedBy: admin.id, deletedAt: at }, metadata));
    this.userAppend(u, events, [admin.readyIdx, ...u.recent], admin);
    u.status = DELETED;
    this.active--;
  }
}
