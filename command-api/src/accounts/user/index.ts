/**
 * The user aggregate, stream `user-{userId}`: registration, e-mail verification, password and profile. Sessions have
 * streams of their own (../session); the ones recorded here before that can still be signed out of (sessions.ts).
 * One module per responsibility: state.ts (state and evolve), commands.ts, rules.ts (shared checks), and the
 * decisions in registration.ts, sessions.ts, password.ts, profile.ts and deletion.ts, joined in decide.ts.
 * Hashing and token checks are async and happen in the routes; the decider gets their outcome and stays pure.
 *
 * A sign-up by password is a *registration*: an id, the hashes of the secret tokens handed to whoever chose its
 * password, and an expiry (ACCOUNT_LIMITS.registrationSeconds). The mailed code verifies it only together with one
 * of its tokens: a later sign-up of the same address replaces the registration (and its tokens), so the owner of
 * the mailbox can never verify into a password someone else chose, nor can that someone verify without the code.
 */

import { decideUser } from './decide';
import { evolveUser, initialUserState } from './state';

export type { UserEvent, UserEventType } from '@pawhaven/contracts';
export { USER_DELETION_MESSAGES, type UserCommand } from './commands';
export { decideUser } from './decide';
export { keepsUsernameKey, registrationLapsed, usesUsernameKey } from './rules';
export { evolveUser, initialUserState, type Registration, type Session, type UserState } from './state';

export const userDecider = { initialState: initialUserState, evolve: evolveUser, decide: decideUser };
