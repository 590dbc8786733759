import {
  ACCOUNT_MESSAGES,
  emailClaimStream,
  usernameClaimStream,
  userStream,
  type LegacyUsernameClaimEvent,
  type UsernameClaimEvent,
} from '@pawhaven/contracts';
import {
  ConcurrencyError,
  conflict,
  handleCommand,
  loadState,
  logger,
  START,
  type LogPosition,
  unauthorized,
  type EventStore,
} from '@pawhaven/platform';
import { keepsUsernameKey, userDecider, usesUsernameKey } from './user';

/**
 * Unique e-mails and usernames, decided by the event store itself (expected revisions), never by a read model.
 *
 * E-mail: `user-email-{email}` is claimed once, with no_stream, and names the address's account stream for good;
 * every sign-up of that address (racing or later) lands on that one stream, whose revision decides between them.
 * The store keeps it under the address's pseudonym (`user-email-hmac:…`, a keyed hash): the address is never in
 * the log.
 *
 * Username: `username-key:{key}` per claim key: the pseudonym of each comparison key (username-keys.ts
 * `usernameClaimKeys`), so look-alikes still meet on one stream while the log never reads as the name. A pending
 * sign-up only *holds* its keys,
 * until its registration expires (plus a grace, see HOLD_GRACE_SECONDS); the hold is released when the sign-up
 * is replaced or fails, and confirmed — for good — when the e-mail is verified (or at once for Google and the
 * admin). Each change is appended at the revision it was decided on, so two sign-ups cannot both take a name.
 */

/**
 * A verification decided just before its sign-up expires is appended a moment later; the hold outlives the
 * registration by this much, so nobody takes the name in between (and a late taker still checks the account).
 */
export const HOLD_GRACE_SECONDS = 5 * 60;

export const holdExpiry = (registrationExpiresAt: string) =>
  new Date(Date.parse(registrationExpiresAt) + HOLD_GRACE_SECONDS * 1000).toISOString();

// ---------- e-mail ----------

export async function claimOwner(store: EventStore, stream: string): Promise<string | null> {
  for await (const e of store.readStream(stream, { maxCount: 1 }))
    return (e.data as { userId: string }).userId;
  return null;
}

/** Claims the address for `userId` unless it is claimed; answers the owner (the caller, or whoever won the race). */
export async function claimEmail(store: EventStore, email: string, userId: string): Promise<string> {
  const stream = emailClaimStream(email);
  const owner = await claimOwner(store, stream);
  if (owner) return owner;
  try {
    await store.append(
      stream,
      [{ type: 'EmailClaimed', data: { userId }, metadata: { actorId: userId } }],
      'no_stream',
    );
    return userId;
  } catch (e) {
    if (e instanceof ConcurrencyError) {
      const winner = await claimOwner(store, stream);
      if (winner) return winner;
    }
    throw e;
  }
}

// ---------- username: the claim decider ----------

export type UsernameHolder = {
  userId: string;
  /** The sign-up holding it; null when confirmed by Google, the admin or the migration. */
  registrationId: string | null;
  /** null once confirmed: kept for good. */
  expiresAt: string | null;
  confirmed: boolean;
};
export type UsernameClaimState = { holder: UsernameHolder | null };

/** What the route found about an expired holder's account (the decider is pure; the account is another stream). */
export type LapsedHolderCheck = { userId: string; registrationId: string | null; stillUsesIt: boolean };

export type UsernameClaimCommand =
  | {
      type: 'HoldUsername';
      data: {
        userId: string;
        registrationId: string;
        username: string;
        expiresAt: string;
        now: Date;
        lapsedHolder?: LapsedHolderCheck;
      };
    }
  | { type: 'ConfirmUsername'; data: { userId: string; username: string; migrated?: boolean } }
  | { type: 'ReleaseUsername'; data: { userId: string; registrationId: string; reason: string } };

export function evolveUsernameClaim(
  state: UsernameClaimState,
  event: UsernameClaimEvent,
): UsernameClaimState {
  switch (event.type) {
    case 'UsernameHeld':
      return {
        holder: {
          userId: event.data.userId,
          registrationId: event.data.registrationId,
          expiresAt: event.data.expiresAt,
          confirmed: false,
        },
      };
    case 'UsernameConfirmed':
      return {
        holder: {
          userId: event.data.userId,
          registrationId: state.holder?.userId === event.data.userId ? state.holder.registrationId : null,
          expiresAt: null,
          confirmed: true,
        },
      };
    case 'UsernameReleased':
      return { holder: null };
    default:
      return state;
  }
}

export function decideUsernameClaim(
  command: UsernameClaimCommand,
  state: UsernameClaimState,
): UsernameClaimEvent[] {
  const h = state.holder;
  switch (command.type) {
    case 'HoldUsername': {
      const d = command.data;
      const held: UsernameClaimEvent = {
        type: 'UsernameHeld',
        data: {
          userId: d.userId,
          registrationId: d.registrationId,
          username: d.username,
          expiresAt: d.expiresAt,
        },
      };
      if (!h) return [held];
      // The same account signing up again (a new sign-up of its address replaces the pending one anyway).
      if (h.userId === d.userId) return h.confirmed ? [] : [held];
      if (h.confirmed || Date.parse(h.expiresAt!) > d.now.getTime())
        throw conflict(ACCOUNT_MESSAGES.usernameTaken);
      // Expired: free, unless its account went on to use it after all (verified at the last moment).
      const lapsed = d.lapsedHolder;
      if (
        !lapsed ||
        lapsed.userId !== h.userId ||
        lapsed.registrationId !== h.registrationId ||
        lapsed.stillUsesIt
      )
        throw conflict(ACCOUNT_MESSAGES.usernameTaken);
      return [held];
    }
    case 'ConfirmUsername': {
      const d = command.data;
      if (h?.confirmed && h.userId === d.userId) return [];
      if (h && h.userId !== d.userId) throw conflict(ACCOUNT_MESSAGES.usernameTaken);
      return [
        {
          type: 'UsernameConfirmed',
          data: { userId: d.userId, username: d.username, ...(d.migrated ? { migrated: true } : {}) },
        },
      ];
    }
    case 'ReleaseUsername': {
      const d = command.data;
      // Only the very hold named: never a newer hold of the same account, never a confirmed name.
      if (!h || h.confirmed || h.userId !== d.userId || h.registrationId !== d.registrationId) return [];
      return [{ type: 'UsernameReleased', data: d }];
    }
    default: {
      const _exhaustive: never = command;
      throw unauthorized();
    }
  }
}

export const usernameClaimDecider = {
  initialState: (): UsernameClaimState => ({ holder: null }),
  evolve: evolveUsernameClaim,
  decide: decideUsernameClaim,
};

// ---------- username: what the routes call ----------

const runClaim = (store: EventStore, key: string, command: UsernameClaimCommand, actorId: string) =>
  handleCommand(store, usernameClaimStream(key), usernameClaimDecider, command, { actorId });

/** An expired hold of another account: does that account still use the name (verified it, or signed up again)? */
async function checkLapsedHolder(
  store: EventStore,
  holder: UsernameHolder | null,
  userId: string,
  key: string,
  now: Date,
): Promise<LapsedHolderCheck | undefined> {
  if (!holder || holder.confirmed || holder.userId === userId) return undefined;
  if (Date.parse(holder.expiresAt!) > now.getTime()) return undefined;
  const { state } = await loadState(store, userStream(holder.userId), userDecider);
  return {
    userId: holder.userId,
    registrationId: holder.registrationId,
    stillUsesIt: keepsUsernameKey(state, key, now),
  };
}

/**
 * Answers 409 'This username is already taken' when a hold would be refused now, without recording anything:
 * a sign-up with a taken name then leaves no trace (not even its e-mail claim). holdUsername still decides.
 */
export async function assertUsernameFree(
  store: EventStore,
  r: { userId: string | null; keys: string[]; now: Date },
): Promise<void> {
  const userId = r.userId ?? '';
  for (const key of r.keys) {
    const { state } = await loadState(store, usernameClaimStream(key), usernameClaimDecider);
    const lapsedHolder = await checkLapsedHolder(store, state.holder, userId, key, r.now);
    decideUsernameClaim(
      {
        type: 'HoldUsername',
        data: { userId, registrationId: '', username: '', expiresAt: '', now: r.now, lapsedHolder },
      },
      state,
    );
  }
}

export type HoldRequest = {
  userId: string;
  registrationId: string;
  username: string;
  keys: string[];
  expiresAt: string;
  now: Date;
};

/**
 * Holds every key of the username for this sign-up, or none: answers 409 'This username is already taken' and
 * releases what it took when one key belongs to someone else.
 */
export async function holdUsername(store: EventStore, r: HoldRequest): Promise<void> {
  const taken: string[] = [];
  try {
    for (const key of [...r.keys].sort()) {
      const { state } = await loadState(store, usernameClaimStream(key), usernameClaimDecider);
      const lapsedHolder = await checkLapsedHolder(store, state.holder, r.userId, key, r.now);
      await runClaim(
        store,
        key,
        {
          type: 'HoldUsername',
          data: {
            userId: r.userId,
            registrationId: r.registrationId,
            username: r.username,
            expiresAt: r.expiresAt,
            now: r.now,
            lapsedHolder,
          },
        },
        r.userId,
      );
      taken.push(key);
    }
  } catch (e) {
    await releaseUsername(store, { ...r, keys: taken, reason: 'not-registered' }).catch((err: unknown) =>
      logger.error({ err, userId: r.userId }, 'releasing a username after a failed hold'),
    );
    if (e instanceof ConcurrencyError) throw conflict(ACCOUNT_MESSAGES.usernameTaken);
    throw e;
  }
}

/**
 * Releases `registrationId`'s hold on these keys — unless the account uses the name after all (its current
 * sign-up has the same name, or it is verified under it): then the hold stays until it expires or is confirmed.
 */
export async function releaseUsername(
  store: EventStore,
  r: { userId: string; registrationId: string; keys: string[]; reason: string },
): Promise<void> {
  if (r.keys.length === 0) return;
  const { state } = await loadState(store, userStream(r.userId), userDecider);
  for (const key of r.keys) {
    if (usesUsernameKey(state, key)) continue;
    await runClaim(
      store,
      key,
      {
        type: 'ReleaseUsername',
        data: { userId: r.userId, registrationId: r.registrationId, reason: r.reason },
      },
      r.userId,
    );
  }
}

/** The account is verified (or created verified): its name is its own for good. */
export async function confirmUsername(
  store: EventStore,
  r: { userId: string; username: string; keys: string[]; migrated?: boolean },
): Promise<void> {
  for (const key of [...r.keys].sort())
    await runClaim(
      store,
      key,
      { type: 'ConfirmUsername', data: { userId: r.userId, username: r.username, migrated: r.migrated } },
      r.userId,
    );
}

/**
 * Confirms after a verification; a clash (only possible if the hold was lost) is logged, not shown: the user
 * did verify, and the name stays protected by the account check of checkLapsedHolder.
 */
export async function confirmVerifiedUsername(
  store: EventStore,
  r: { userId: string; username: string; keys: string[] },
): Promise<void> {
  await confirmUsername(store, r).catch((err: unknown) =>
    logger.error({ err, userId: r.userId, username: r.username }, 'confirming a verified username failed'),
  );
}

// ---------- the one-time migration of the first version's claims ----------

export const USERNAME_MIGRATION_STREAM = 'migration-username-keys-v1';

/**
 * The first version claimed `username-{lower-case name}` for good at sign-up. Once per database (a marker stream
 * records it), every account that claimed a name that way gets its name under the new keys: confirmed when
 * verified, held like any pending sign-up when its sign-up is still running, nothing when it lapsed (those names
 * are free again). Two old names that now collide both stay (logged); new look-alikes of either are refused.
 */
export async function migrateLegacyUsernameClaims(
  store: EventStore,
  now = new Date(),
  logEnd?: LogPosition,
): Promise<{ migrated: number; clashes: string[] } | null> {
  for await (const _ of store.readStream(USERNAME_MIGRATION_STREAM, { maxCount: 1 })) return null;
  const owners = new Set<string>();
  // Up to the last committed event, not to the visibility horizon: a transaction open anywhere on the server (even
  // in another database) holds the horizon back, and a claim it hid would never be migrated (the marker is final).
  for await (const e of store.readAll(START, logEnd ? { upTo: logEnd } : {}))
    if (e.type === 'UsernameClaimed' && e.streamId.startsWith('username-'))
      owners.add((e.data as LegacyUsernameClaimEvent['data']).userId);
  const clashes: string[] = [];
  let migrated = 0;
  for (const userId of owners) {
    const { state } = await loadState(store, userStream(userId), userDecider);
    // Events from before keys were recorded got theirs at start (username-keys.ts pseudonymiseUsernameKeys).
    const keys = state.usernameKeys;
    try {
      if (state.status === 'active') {
        await confirmUsername(store, { userId, username: state.username, keys, migrated: true });
        migrated++;
      } else if (
        state.status === 'pending_verification' &&
        state.registration &&
        Date.parse(state.registration.expiresAt) > now.getTime()
      ) {
        await holdUsername(store, {
          userId,
          registrationId: state.registration.registrationId,
          username: state.username,
          keys,
          expiresAt: holdExpiry(state.registration.expiresAt),
          now,
        });
        migrated++;
      }
    } catch (err) {
      clashes.push(userId); // the account, not its name: the log keeps no readable username
      logger.warn({ err, userId, username: state.username }, 'an existing username collides with another');
    }
  }
  try {
    await store.append(
      USERNAME_MIGRATION_STREAM,
      [
        {
          type: 'UsernameClaimsMigrated',
          data: { accounts: owners.size, migrated, clashes },
          metadata: { actorId: 'system' },
        },
      ],
      'no_stream',
    );
  } catch (e) {
    if (!(e instanceof ConcurrencyError)) throw e; // another instance migrated at the same time
  }
  return { migrated, clashes };
}
