import { describe, it } from 'vitest';
import { ACCOUNT_MESSAGES, type UsernameClaimEvent } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { usernameClaimDecider, type LapsedHolderCheck } from './claims';

const given = deciderSpec(usernameClaimDecider);
const now = new Date('2026-11-21T10:00:00.000Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);
const iso = (d: Date) => d.toISOString();

const held = (userId: string, registrationId: string, expiresAt = iso(later(3600))): UsernameClaimEvent => ({
  type: 'UsernameHeld',
  data: { userId, registrationId, username: 'Ayesha', expiresAt },
});
const confirmed = (userId: string): UsernameClaimEvent => ({
  type: 'UsernameConfirmed',
  data: { userId, username: 'Ayesha' },
});
const released = (userId: string, registrationId: string, reason = 'replaced'): UsernameClaimEvent => ({
  type: 'UsernameReleased',
  data: { userId, registrationId, reason },
});
const hold = (userId: string, registrationId: string, at = now, lapsedHolder?: LapsedHolderCheck) => ({
  type: 'HoldUsername' as const,
  data: { userId, registrationId, username: 'Ayesha', expiresAt: iso(later(3600)), now: at, lapsedHolder },
});
const release = (userId: string, registrationId: string) => ({
  type: 'ReleaseUsername' as const,
  data: { userId, registrationId, reason: 'replaced' },
});
const confirm = (userId: string) => ({
  type: 'ConfirmUsername' as const,
  data: { userId, username: 'Ayesha' },
});
const taken = ACCOUNT_MESSAGES.usernameTaken;

describe('holding a username for a pending sign-up', () => {
  it('holds a free name until the sign-up expires', () =>
    given()
      .when(hold('u1', 'r1'))
      .then([held('u1', 'r1')]));

  it("refuses a name another account's live sign-up holds, or a confirmed one", () => {
    given(held('u1', 'r1')).when(hold('u2', 'r2')).thenRefuses(409, taken);
    given(held('u1', 'r1'), confirmed('u1'))
      .when(hold('u2', 'r2', later(99_999)))
      .thenRefuses(409, taken);
  });

  it('a released name is free at once', () =>
    given(held('u1', 'r1'), released('u1', 'r1'))
      .when(hold('u2', 'r2'))
      .then([held('u2', 'r2')]));

  it("the same account's next sign-up takes its name over (the address's pending sign-up is replaced anyway)", () =>
    given(held('u1', 'r1'))
      .when(hold('u1', 'r2'))
      .then([held('u1', 'r2')]));

  it("an expired hold is free once the holder's account is checked and does not use the name", () => {
    const at = later(3600);
    given(held('u1', 'r1'))
      .when(hold('u2', 'r2', at, { userId: 'u1', registrationId: 'r1', stillUsesIt: false }))
      .then([held('u2', 'r2')]);
    // Unchecked, checked for another hold, or verified at the last moment: still taken.
    given(held('u1', 'r1'))
      .when(hold('u2', 'r2', at))
      .thenRefuses(409, taken);
    given(held('u1', 'r1'))
      .when(hold('u2', 'r2', at, { userId: 'u1', registrationId: 'r0', stillUsesIt: false }))
      .thenRefuses(409, taken);
    given(held('u1', 'r1'))
      .when(hold('u2', 'r2', at, { userId: 'u1', registrationId: 'r1', stillUsesIt: true }))
      .thenRefuses(409, taken);
  });
});

describe('releasing and confirming', () => {
  it('releases exactly the hold named: not a newer hold of the account, not a confirmed name', () => {
    given(held('u1', 'r1'))
      .when(release('u1', 'r1'))
      .then([released('u1', 'r1')]);
    given(held('u1', 'r1'), held('u1', 'r2')).when(release('u1', 'r1')).thenNothing();
    given(held('u1', 'r1'), confirmed('u1')).when(release('u1', 'r1')).thenNothing();
    given(held('u2', 'r2')).when(release('u1', 'r1')).thenNothing();
    given().when(release('u1', 'r1')).thenNothing();
  });

  it("confirms the account's own hold (whichever of its sign-ups took it), once", () => {
    given(held('u1', 'r1'))
      .when(confirm('u1'))
      .then([confirmed('u1')]);
    given(held('u1', 'r2'))
      .when(confirm('u1'))
      .then([confirmed('u1')]);
    given(held('u1', 'r1'), confirmed('u1')).when(confirm('u1')).thenNothing();
    given()
      .when(confirm('u1'))
      .then([confirmed('u1')]);
  });

  it("never confirms over another account's hold", () =>
    given(held('u2', 'r2')).when(confirm('u1')).thenRefuses(409, taken));
});
