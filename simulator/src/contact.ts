import { contactMessageStream } from '@pawhaven/contracts';
import { FIRST_NAMES, LAST_NAMES, CONTACT_MESSAGES, OTHER_DOMAINS } from './texts';
import { type World } from './world';

/** The contact form, signed in or not. */

export function contact(w: World, signedIn: boolean): void {
  const u = signedIn ? w.pickUser() : undefined;
  if (signedIn && !u) return;
  const messageId = w.rng.uuid();
  const name = u ? u.fullName : `${w.rng.pick(FIRST_NAMES)} ${w.rng.pick(LAST_NAMES)}`;
  const email = u
    ? u.email
    : `${name.toLowerCase().replace(' ', '.')}${w.rng.int(1000)}@${w.rng.pick(OTHER_DOMAINS)}`;
  w.emit(
    contactMessageStream(messageId),
    [
      w.ev(
        'ContactMessageReceived',
        {
          messageId,
          name,
          email,
          message: w.fill(w.rng.pick(CONTACT_MESSAGES)),
          userId: u?.id ?? null,
          receivedAt: w.iso(),
        },
        u ? { actorId: u.id } : {},
      ),
    ],
    -1,
    u ? [u.readyIdx] : [],
    u,
  );
}
