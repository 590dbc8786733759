import { ACCOUNT_LIMITS, emailClaimStream, usernameClaimStream } from '@pawhaven/contracts';
import type { NewEvent } from '@pawhaven/platform';
import { HOLD_GRACE_SECONDS } from '@pawhaven/command-api';
import { asciiUsernameKeys } from './usernames';
import { FIRST_NAMES, LAST_NAMES } from './texts';
import { PENDING, VERIFIED, ACTIVE, type User } from './state';
import { SEC, MIN, DAY, type World } from './world';
import { startSession, firstSignIn } from './accounts';

/**
 * Sign-ups (by password with a mailed code, with Google, the bootstrap administrator) and the username claims they
 * hold and confirm.
 */

const REGISTRATION_MS = ACCOUNT_LIMITS.registrationSeconds * SEC;
const OTP_MS = ACCOUNT_LIMITS.otpSeconds * SEC;
const HOLD_GRACE_MS = HOLD_GRACE_SECONDS * SEC;

function newUser(
  w: World,
  fields: {
    fullName: string;
    username: string;
    email: string;
    isVet: boolean;
    isAdmin: boolean;
    via: User['via'];
  },
): User {
  const keys = asciiUsernameKeys(fields.username);
  for (const k of keys) w.usedKeys.add(k);
  w.usedEmails.add(fields.email);
  const u: User = {
    idx: w.users.length,
    id: w.rng.uuid(),
    ...fields,
    keys,
    status: PENDING,
    rev: -1,
    registeredAt: w.clock,
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
  w.users.push(u);
  return u;
}

function claimEmail(w: World, u: User): void {
  w.emit(emailClaimStream(u.email), [w.ev('EmailClaimed', { userId: u.id }, { actorId: u.id })], -1, [], u);
}

/** Appends one event to each key stream of `keys`, in key order, as holdUsername / confirmUsername do. */

function claimKeys(w: World, u: User, keys: string[], event: (key: string) => NewEvent): void {
  for (const key of [...keys].sort()) {
    const rev = w.keyRevs.get(key) ?? -1;
    w.emit(usernameClaimStream(key), [event(key)], rev, [], u);
    w.keyRevs.set(key, rev + 1);
  }
}

function holdKeys(
  w: World,
  u: User,
  keys: string[],
  username: string,
  registrationId: string,
  expiresAt: number,
): void {
  claimKeys(w, u, keys, () =>
    w.ev(
      'UsernameHeld',
      { userId: u.id, registrationId, username, expiresAt: w.iso(expiresAt) },
      { actorId: u.id },
    ),
  );
}

function confirmKeys(w: World, u: User): void {
  claimKeys(w, u, u.keys, () =>
    w.ev('UsernameConfirmed', { userId: u.id, username: u.username }, { actorId: u.id }),
  );
}

export function bootstrapAdmin(w: World, email: string, username: string): void {
  const u = newUser(w, {
    fullName: username,
    username,
    email,
    isVet: false,
    isAdmin: true,
    via: 'bootstrap',
  });
  claimEmail(w, u);
  holdKeys(w, u, u.keys, username, w.rng.uuid(), w.clock + HOLD_GRACE_MS);
  w.userAppend(u, [
    w.ev(
      'UserRegistered',
      {
        userId: u.id,
        username,
        usernameKeys: u.keys,
        email,
        passwordHash: w.passwordHash(),
        isVeterinarian: false,
        isAdmin: true,
        via: 'bootstrap',
        registeredAt: w.iso(),
      },
      { actorId: 'system' },
    ),
  ]);
  confirmKeys(w, u);
  u.status = VERIFIED;
  w.admins.push(u);
  w.at(w.rng.range(2, 30) * MIN, () => {
    const idx = startSession(w, u, true);
    u.readyIdx = idx;
    u.status = ACTIVE;
  });
}

/**
 * A free name: a person picks another when theirs is taken (the refused sign-up leaves no trace); a Google
 * sign-up's name gets four digits added, as complete-google-registration does.
 */
function uniqueUsername(w: World, wanted: string, google = false): string {
  const base = google ? wanted.slice(0, ACCOUNT_LIMITS.usernameMaxLength - 5) : wanted;
  let name = base;
  for (let i = 0; ; i++) {
    if (!asciiUsernameKeys(name).some((k) => w.usedKeys.has(k))) return name;
    name = google || i >= 3 ? `${base}${1000 + w.rng.int(9000)}` : `${base}${1 + w.rng.int(99)}`;
  }
}

function uniqueEmail(w: World, first: string, last: string): string {
  const base = `${first}.${last}`.toLowerCase();
  let email = `${base}@gmail.com`;
  while (w.usedEmails.has(email)) email = `${base}${w.rng.int(10_000)}@gmail.com`;
  return email;
}

/** A newcomer signs up: with a password (verified by a mailed code) or with Google. */
export function register(w: World): void {
  const first = w.rng.pick(FIRST_NAMES);
  const last = w.rng.pick(LAST_NAMES);
  const fullName = `${first} ${last}`;
  const email = uniqueEmail(w, first, last);
  const isVet = w.rng.chance(0.1);
  if (w.rng.chance(0.35)) {
    const u = newUser(w, {
      fullName,
      username: uniqueUsername(w, fullName, true),
      email,
      isVet,
      isAdmin: false,
      via: 'google',
    });
    claimEmail(w, u);
    googleRegistration(w, u);
    return;
  }
  const style = w.rng.int(4);
  const base =
    style === 0
      ? `${first.toLowerCase()}_${last.toLowerCase()}`
      : style === 1
        ? `${first}${last}`
        : style === 2
          ? `${first.toLowerCase()}.${last.toLowerCase()}${w.rng.int(100)}`
          : `${first}_${w.rng.pick(['paws', 'pets', 'rescue', 'cats', 'dogs'])}`;
  const u = newUser(w, {
    fullName,
    username: uniqueUsername(w, base),
    email,
    isVet,
    isAdmin: false,
    via: 'password',
  });
  claimEmail(w, u);
  passwordRegistration(w, u, u.username, null);
}

/**
 * POST /register: the username held for the sign-up, then UserRegistered (or RegistrationRenewed when the address
 * has a pending sign-up) with a code; a replaced sign-up's other name is released.
 */
function passwordRegistration(
  w: World,
  u: User,
  username: string,
  renewing: { regId: string; keys: string[] } | null,
): void {
  const keys = asciiUsernameKeys(username);
  for (const k of keys) w.usedKeys.add(k);
  const regId = w.rng.uuid();
  const expires = w.clock + REGISTRATION_MS;
  holdKeys(w, u, keys, username, regId, expires + HOLD_GRACE_MS);
  const registration = { registrationId: regId, tokenHash: w.rng.hex(8), expiresAt: w.iso(expires) };
  const code = w.ev(
    'RegistrationCodeIssued',
    { codeHash: w.rng.hex(8), expiresAt: w.iso(w.clock + OTP_MS) },
    { actorId: u.id },
  );
  if (!renewing) {
    w.userAppend(u, [
      w.ev(
        'UserRegistered',
        {
          userId: u.id,
          username,
          email: u.email,
          passwordHash: w.passwordHash(),
          isVeterinarian: u.isVet,
          isAdmin: false,
          via: 'password',
          registeredAt: w.iso(),
          usernameKeys: keys,
          registration,
        },
        { actorId: u.id },
      ),
      code,
    ]);
  } else {
    w.userAppend(u, [
      w.ev(
        'RegistrationRenewed',
        {
          username,
          passwordHash: w.passwordHash(),
          isVeterinarian: u.isVet,
          usernameKeys: keys,
          registration,
          replaced: { registrationId: renewing.regId, usernameKeys: renewing.keys },
          renewedAt: w.iso(),
        },
        { actorId: u.id },
      ),
      code,
    ]);
    const released = renewing.keys.filter((k) => !keys.includes(k));
    for (const key of released) {
      const rev = w.keyRevs.get(key)!;
      w.emit(
        usernameClaimStream(key),
        [
          w.ev(
            'UsernameReleased',
            { userId: u.id, registrationId: renewing.regId, reason: 'replaced' },
            { actorId: u.id },
          ),
        ],
        rev,
        [],
        u,
      );
      w.keyRevs.set(key, rev + 1);
    }
  }
  u.username = username;
  u.keys = keys;
  u.via = 'password';
  u.hasPassword = true;
  u.regId = regId;
  u.regExpires = expires;
  u.codeAt = w.clock;
  u.codeAttempts = 0;
  u.pendingSteps = renewing ? u.pendingSteps : 0;
  if (!renewing && w.rng.chance(0.05)) {
    // Never verified: the sign-up lapses; some come back days later.
    if (w.rng.chance(0.35)) w.at(w.rng.range(1, 12) * DAY, () => comeBack(w, u));
    return;
  }
  pendingNext(w, u);
}

/** What a pending sign-up does next: mostly types the mailed code; sometimes fumbles first. */
function pendingNext(w: World, u: User): void {
  const r = w.rng.next();
  const late = w.clock > u.regExpires - 15 * MIN;
  if (u.pendingSteps >= 3 || late || r < 0.87) {
    w.at(w.rng.range(15, 100) * SEC, () => verify(w, u));
    return;
  }
  u.pendingSteps++;
  if (r < 0.92)
    w.at(w.rng.range(10, 80) * SEC, () => {
      if (u.status !== PENDING || w.clock >= u.codeAt + OTP_MS) return;
      u.codeAttempts++;
      // A wrong code is refused, and the attempt recorded (RefusedWithEvents).
      w.userAppend(u, [w.ev('RegistrationCodeRejected', { attempt: u.codeAttempts }, { actorId: u.id })]);
      pendingNext(w, u);
    });
  else if (r < 0.95)
    w.at(w.rng.range(125, 400) * SEC, () => {
      if (u.status !== PENDING) return;
      w.userAppend(u, [
        w.ev(
          'RegistrationCodeIssued',
          { codeHash: w.rng.hex(8), expiresAt: w.iso(w.clock + OTP_MS) },
          { actorId: u.id },
        ),
      ]);
      u.codeAt = w.clock;
      u.codeAttempts = 0;
      pendingNext(w, u);
    });
  else if (r < 0.975)
    // Signs in with the pending sign-up's password in another browser: one more token and a new code.
    w.at(w.rng.range(1, 20) * MIN, () => {
      if (u.status !== PENDING) return;
      w.userAppend(u, [
        w.ev(
          'RegistrationTokenIssued',
          { registrationId: u.regId, tokenHash: w.rng.hex(8) },
          { actorId: u.id },
        ),
        w.ev(
          'RegistrationCodeIssued',
          { codeHash: w.rng.hex(8), expiresAt: w.iso(w.clock + OTP_MS) },
          { actorId: u.id },
        ),
      ]);
      u.codeAt = w.clock;
      u.codeAttempts = 0;
      pendingNext(w, u);
    });
  else
    // Signs up again before verifying (the mail did not come?): the new sign-up replaces the pending one.
    w.at(w.rng.range(2, 25) * MIN, () => {
      if (u.status !== PENDING) return;
      const username = w.rng.chance(0.3) ? uniqueUsername(w, `${u.username}_${w.rng.int(100)}`) : u.username;
      passwordRegistration(w, u, username, { regId: u.regId, keys: u.keys });
    });
}

function verify(w: World, u: User): void {
  if (u.status !== PENDING || w.clock >= u.regExpires) return;
  if (w.clock >= u.codeAt + OTP_MS) {
    // Too slow: the code expired; they ask for a new one and type that.
    w.userAppend(u, [
      w.ev(
        'RegistrationCodeIssued',
        { codeHash: w.rng.hex(8), expiresAt: w.iso(w.clock + OTP_MS) },
        { actorId: u.id },
      ),
    ]);
    u.codeAt = w.clock;
    u.codeAttempts = 0;
    w.at(w.rng.range(15, 100) * SEC, () => verify(w, u));
    return;
  }
  w.userAppend(u, [w.ev('EmailVerified', { verifiedAt: w.iso() }, { actorId: u.id })]);
  confirmKeys(w, u);
  u.status = VERIFIED;
  w.at(w.rng.range(5, 180) * SEC, () => firstSignIn(w, u, w.rng.chance(0.55)));
}

/** A lapsed sign-up's owner comes back: signs up again by password, or with Google (which takes it over). */
function comeBack(w: World, u: User): void {
  if (u.status !== PENDING || w.clock < u.regExpires) return;
  if (w.rng.chance(0.5)) {
    passwordRegistration(w, u, u.username, { regId: u.regId, keys: u.keys });
    return;
  }
  u.username = uniqueUsername(w, u.fullName, true);
  u.keys = asciiUsernameKeys(u.username);
  for (const k of u.keys) w.usedKeys.add(k);
  googleRegistration(w, u);
}

/** POST /complete-google-registration: hold, register (verified), confirm, sign in (remember me). */
function googleRegistration(w: World, u: User): void {
  holdKeys(w, u, u.keys, u.username, w.rng.uuid(), w.clock + HOLD_GRACE_MS);
  w.userAppend(u, [
    w.ev(
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
        googleSubject: `1${w.rng.digits(20)}`,
        registeredAt: w.iso(),
      },
      { actorId: u.id },
    ),
  ]);
  u.via = 'google';
  u.hasPassword = false;
  confirmKeys(w, u);
  u.status = VERIFIED;
  firstSignIn(w, u, true);
}
