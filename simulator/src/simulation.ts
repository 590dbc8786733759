import { USERNAME_MIGRATION_STREAM } from '@pawhaven/command-api';
import type { RealisticLogOptions } from './realistic-log';
import { ACTIVE } from './state';
import { HOUR, DAY, World } from './world';
import {
  signIn,
  adminSignIn,
  signOut,
  updateProfile,
  changeProfileImage,
  removeProfileImage,
  changePassword,
  resetPassword,
  adminDeleteUser,
} from './accounts';
import {
  publishAd,
  updateAd,
  deleteOwnAd,
  adminDeleteAd,
  requestAdoption,
  adminDeleteRequest,
} from './adoption';
import { startConversation, resumeConversation } from './chat';
import {
  publishPost,
  editCaption,
  deleteOwnPost,
  adminDeletePost,
  comment,
  deleteOwnComment,
  adminDeleteComment,
  like,
  unlike,
} from './community';
import { contact } from './contact';
import { seedDirectory } from './directory';
import {
  readAllNotifications,
  deleteAllNotifications,
  readNotification,
  deleteNotification,
} from './notifications';
import { bootstrapAdmin, register } from './registration';

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

/** The simulation's loop: the first start, then spontaneous actions (weighted) and the follow-ups they schedule. */
export class Simulation extends World {
  private steps = 0;
  private readonly actions: { weight: number; run: () => void }[];
  private readonly totalWeight: number;

  constructor(opts: RealisticLogOptions) {
    super(opts);
    const deletions = (0.3 * (opts.deletionsPerMillion ?? 300)) / 300;
    // Relative weights of what an active user does next (the follow-ups — verifying, answering requests,
    // chatting on, receipts — are scheduled by the actions themselves).
    this.actions = [
      { weight: 17, run: () => register(this) },
      { weight: 36, run: () => signIn(this) },
      { weight: 12, run: () => signOut(this) },
      { weight: 11, run: () => updateProfile(this) },
      { weight: 6.5, run: () => changeProfileImage(this) },
      { weight: 0.6, run: () => removeProfileImage(this) },
      { weight: 0.4, run: () => changePassword(this) },
      { weight: 0.3, run: () => resetPassword(this) },
      { weight: 33, run: () => publishAd(this) },
      { weight: 6.5, run: () => updateAd(this) },
      { weight: 1.5, run: () => deleteOwnAd(this) },
      { weight: 88, run: () => requestAdoption(this) },
      { weight: 43, run: () => publishPost(this) },
      { weight: 2.5, run: () => editCaption(this) },
      { weight: 1.1, run: () => deleteOwnPost(this) },
      { weight: 135, run: () => comment(this) },
      { weight: 2.5, run: () => deleteOwnComment(this) },
      { weight: 265, run: () => like(this) },
      { weight: 8.5, run: () => unlike(this) },
      { weight: 12.5, run: () => startConversation(this) },
      { weight: 8, run: () => resumeConversation(this) },
      { weight: 4.5, run: () => readAllNotifications(this) },
      { weight: 1.3, run: () => deleteAllNotifications(this) },
      { weight: 3.5, run: () => readNotification(this) },
      { weight: 0.9, run: () => deleteNotification(this) },
      { weight: 2.3, run: () => contact(this, true) },
      { weight: 2.3, run: () => contact(this, false) },
      { weight: deletions, run: () => adminDeleteUser(this) },
      { weight: 0.3, run: () => adminDeletePost(this) },
      { weight: 0.45, run: () => adminDeleteComment(this) },
      { weight: 0.45, run: () => adminDeleteAd(this) },
      { weight: 0.5, run: () => adminDeleteRequest(this) },
      { weight: 0.4, run: () => adminSignIn(this) },
    ];
    this.totalWeight = this.actions.reduce((s, a) => s + a.weight, 0);
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
      register(this);
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

  start(): void {
    this.emit(
      USERNAME_MIGRATION_STREAM,
      [this.ev('UsernameClaimsMigrated', { accounts: 0, migrated: 0, clashes: [] }, { actorId: 'system' })],
      -1,
      [],
    );
    bootstrapAdmin(this, ADMIN_EMAIL, ADMIN_USERNAME);
    seedDirectory(this);
    // A later start with another ADMIN_EMAIL adds a second administrator.
    this.at(this.rng.range(30, 60) * DAY, () => bootstrapAdmin(this, 'team@pawhaven.pk', 'PawHaven Team'));
  }
}
