import { ACCOUNT_LIMITS, sessionStream } from '@pawhaven/contracts';
import { CITIES, ABOUTS, VET_ABOUTS } from './texts';
import { VERIFIED, ACTIVE, DELETED, type Session, type User } from './state';
import { SEC, DAY, type World } from './world';

/**
 * What a signed-up user does with their account (sessions, profile, password), and an administrator's deletion of
 * it.
 */

/** config REMEMBER_ME_DAYS default */
const REMEMBER_ME_MS = 30 * DAY;
const RESET_CODE_MS = ACCOUNT_LIMITS.resetCodeSeconds * SEC;

/** A sign-in: the session's own stream, naming the user stream's revision it was decided on. */
export function startSession(w: World, u: User, rememberMe: boolean): number {
  const s: Session = {
    id: w.rng.uuid(),
    revoked: false,
    expires: w.clock + (rememberMe ? REMEMBER_ME_MS : DAY),
    startIdx: -1,
  };
  u.sessions.push(s);
  const started = w.ev(
    'SessionStarted',
    {
      sessionId: s.id,
      userId: u.id,
      userRevision: u.rev,
      secretHash: w.rng.hex(8),
      expiresAt: w.iso(s.expires),
      rememberMe,
      startedAt: w.iso(),
    },
    { actorId: u.id },
  );
  // After the user's last append (their registration, or the reset this sign-in follows).
  s.startIdx = w.emit(sessionStream(s.id), [started], -1, u.recent, u);
  return s.startIdx;
}

/** The first sign-in; the user takes part a little later (their first page loads). */

export function firstSignIn(w: World, u: User, rememberMe: boolean): void {
  if (u.status !== VERIFIED) return;
  u.readyIdx = startSession(w, u, rememberMe);
  w.at(w.rng.range(10, 300) * SEC, () => {
    if (u.status !== VERIFIED) return;
    u.status = ACTIVE;
    w.active++;
    // Activity is skewed: most users are quiet, a few do a lot.
    const r = w.rng.next();
    const weight = r < 0.55 ? 1 : r < 0.85 ? 2 : r < 0.97 ? 5 : 12;
    for (let i = 0; i < weight; i++) w.tickets.push(u.idx);
  });
}

export function signIn(w: World): void {
  const u = w.pickUser();
  if (!u) return;
  startSession(w, u, u.via === 'google' || w.rng.chance(0.55));
}

export function adminSignIn(w: World): void {
  const a = w.pickAdmin();
  if (a) startSession(w, a, true);
}

export function signOut(w: World): void {
  const u = w.pickUser();
  if (!u) return;
  for (let i = u.sessions.length - 1; i >= 0; i--) {
    const s = u.sessions[i]!;
    if (s.revoked || s.expires <= w.clock) continue;
    s.revoked = true;
    w.emit(
      sessionStream(s.id),
      [w.ev('SessionRevoked', { sessionId: s.id, revokedAt: w.iso() }, { actorId: u.id })],
      0,
      [s.startIdx],
      u,
    );
    return;
  }
}

export function updateProfile(w: World): void {
  const u = w.pickUser();
  if (!u) return;
  // Fields left out keep their value; the event carries all three.
  if (u.city === '' || w.rng.chance(0.5)) u.city = w.rng.pick(CITIES);
  if (u.phone === '' ? w.rng.chance(0.7) : w.rng.chance(0.2)) u.phone = w.phone();
  if (u.about === '' || w.rng.chance(0.5)) u.about = w.fill(w.rng.pick(u.isVet ? VET_ABOUTS : ABOUTS));
  w.userAppend(u, [
    w.ev('ProfileUpdated', { phone: u.phone, city: u.city, about: u.about }, { actorId: u.id }),
  ]);
}

export function changeProfileImage(w: World): void {
  const u = w.pickUser();
  if (!u) return;
  u.image = w.image();
  w.userAppend(u, [w.ev('ProfileImageChanged', { profileImage: u.image }, { actorId: u.id })]);
}

export function removeProfileImage(w: World): void {
  const u = w.pickUser();
  if (!u?.image) return;
  u.image = null;
  w.userAppend(u, [w.ev('ProfileImageRemoved', {}, { actorId: u.id })]);
}

export function changePassword(w: World): void {
  const u = w.pickUser();
  if (!u?.hasPassword) return;
  w.userAppend(u, [
    w.ev('PasswordChanged', { passwordHash: w.passwordHash(), changedAt: w.iso() }, { actorId: u.id }),
  ]);
}

/** Forgot password: a code, the code verified, the new password (every session ends), then a sign-in. */
export function resetPassword(w: World): void {
  const u = w.pickUser();
  if (!u?.hasPassword) return;
  w.userAppend(u, [
    w.ev(
      'PasswordResetCodeIssued',
      { codeHash: w.rng.hex(8), expiresAt: w.iso(w.clock + RESET_CODE_MS) },
      { actorId: u.id },
    ),
  ]);
  w.at(w.rng.range(40, 240) * SEC, () => {
    if (u.status !== ACTIVE) return;
    w.userAppend(u, [w.ev('PasswordResetCodeVerified', { verifiedAt: w.iso() }, { actorId: u.id })]);
    w.at(w.rng.range(20, 150) * SEC, () => {
      if (u.status !== ACTIVE) return;
      w.userAppend(u, [
        w.ev('PasswordReset', { passwordHash: w.passwordHash(), resetAt: w.iso() }, { actorId: u.id }),
      ]);
      for (const s of u.sessions) s.revoked = true;
      w.at(w.rng.range(20, 120) * SEC, () => {
        if (u.status === ACTIVE) startSession(w, u, w.rng.chance(0.55));
      });
    });
  });
}

/** DeleteUser: it ends every session (each in its own stream); the account is gone for good. */
export function adminDeleteUser(w: World): void {
  const admin = w.pickAdmin();
  const u = w.pickUser();
  if (!admin || !u || w.clock - u.registeredAt < DAY) return;
  const at = w.iso();
  for (const s of u.sessions) s.revoked = true;
  w.userAppend(
    u,
    [w.ev('UserDeleted', { userId: u.id, deletedBy: admin.id, deletedAt: at }, { actorId: admin.id })],
    [admin.readyIdx, ...u.recent],
    admin,
  );
  u.status = DELETED;
  w.active--;
}
