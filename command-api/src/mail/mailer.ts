import nodemailer from 'nodemailer';
import type { Knex } from 'knex';
import { logger, type Config } from '@pawhaven/platform';
import { keepInDevMailbox } from './dev-mailbox';

export type OutgoingMail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send(mail: OutgoingMail): Promise<void> };

/**
 * nodemailer over SMTP when SMTP_URL is set. In the embedded default there is no mail server: mail is kept in
 * the dev_mailbox table, readable at /dev/mailbox, so a new user can read their code. Off in production.
 */
export function createMailer(config: Config, knex: Knex): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(mail) {
        await transport.sendMail({ from: config.MAIL_FROM, ...mail });
      },
    };
  }
  if (config.devMailbox) {
    const transport = nodemailer.createTransport({ jsonTransport: true });
    return {
      async send(mail) {
        await transport.sendMail({ from: config.MAIL_FROM, ...mail });
        await keepInDevMailbox(knex, mail);
        logger.info({ to: mail.to, subject: mail.subject }, 'mail kept in the dev mailbox (/dev/mailbox)');
      },
    };
  }
  return {
    async send(mail) {
      logger.error({ to: mail.to }, 'no SMTP_URL configured in production: mail not sent');
      throw new Error('Mail is not configured');
    },
  };
}
