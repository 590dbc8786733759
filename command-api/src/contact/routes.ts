import { Router } from 'express';
import {
  CONTACT_MESSAGES as M,
  contactBody,
  contactMessageStream,
  type ContactResponse,
} from '@pawhaven/contracts';
import { handleCommand, logger } from '@pawhaven/platform';
import type { CommandDeps } from '../deps';
import { newIdFor } from '../http/idempotency';
import { rateLimiter } from '../http/rate-limits';
import { contactMessageDecider } from './contact-message';

/**
 * The confirmation mailed to the sender. It repeats nothing the sender typed (name, message): the form is open to
 * anyone, and a confirmation that echoed their text would let a stranger send any words to any address from us.
 */
const confirmation = (to: string) => ({
  to,
  subject: 'We received your message',
  text:
    'Hello,\n\nThank you for contacting PawHaven. We have received your message and will reply to this address as ' +
    'soon as we can.\n\nIf you need urgent help for an injured animal, please call a rescue group or a clinic near ' +
    'you: you will find them on our NGO and Clinics & Vets pages.\n\nIf you did not write to us, you can ignore ' +
    'this e-mail.\n\nThe PawHaven team',
});

/** POST /api/contact: the contact form, open to visitors; mounted at /api/contact. */
export function contactRoutes(deps: CommandDeps): Router {
  const { store, mailer } = deps;
  const now = deps.now ?? (() => new Date());
  const router = Router();

  router.post('/', rateLimiter(deps, 'contact'), async (req, res) => {
    const input = contactBody.parse(req.body ?? {});
    const messageId = newIdFor(req, 'contact-message');
    const userId = req.auth?.userId ?? null;
    const result = await handleCommand(
      store,
      contactMessageStream(messageId),
      contactMessageDecider,
      { type: 'ReceiveContactMessage', data: { messageId, ...input, userId, now: now() } },
      userId ? { actorId: userId } : {},
    );
    // Only for a message recorded now (not a retry of one already received). The message is kept whatever
    // happens to the mail, so a mail failure is logged rather than shown: sending again would only duplicate it.
    if (result.events.length > 0)
      await mailer
        .send(confirmation(input.email))
        .catch((err: unknown) => logger.error({ err, messageId }, 'contact confirmation mail failed'));
    const body: ContactResponse = {
      success: true,
      message: M.sent,
      ...(result.position !== null ? { position: String(result.position) } : {}),
    };
    res.status(201).json(body);
  });

  return router;
}
