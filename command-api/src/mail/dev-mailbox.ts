import type { Knex } from 'knex';
import type { OutgoingMail } from './mailer';

/**
 * The dev mailbox (`dev_mailbox`, shown at /dev/mailbox): mail PawHaven would have sent, kept where there is no mail
 * server. Never in production.
 */
export async function keepInDevMailbox(knex: Knex, mail: OutgoingMail): Promise<void> {
  await knex('dev_mailbox').insert({
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
  });
}

/** Forgets every kept mail to `address` (any case): a deleted person's codes and confirmations. */
export async function forgetDevMailsTo(knex: Knex, address: string): Promise<number> {
  const to = address.trim().toLowerCase();
  if (!to) return 0;
  // lower("to") is how the mailbox is indexed and read.
  return knex('dev_mailbox').whereRaw('lower("to") = ?', [to]).delete();
}
