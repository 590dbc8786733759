import { Router } from 'express';
import { ACCOUNT_LIMITS, type PublicConfig } from '@pawhaven/contracts';
import { describeHeldBack, heldBackStatus, notFound, projectionStatus } from '@pawhaven/platform';
import type { QueryDeps } from '../deps';
import { apiReference } from './api-reference';
import { mailboxPage } from './mailbox-page';
import { openApiDocument } from './openapi';

/** How long a browser or proxy may show a picture without asking again: a deleted picture is gone within this. */
const IMAGE_MAX_AGE_SECONDS = 5 * 60;

const isLoopback = (address: string | undefined) =>
  !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));

export function systemQueries({ config, db, projections, presence }: QueryDeps): Router {
  const router = Router();

  router.get('/api/health', async (_req, res) => {
    const started = performance.now();
    try {
      await db.knex.raw('SELECT 1');
      // The last event committed, whatever an open transaction keeps from subscribers for now (`heldBack` says so).
      const { rows: last } = await db.pool.query<{ position: string }>(
        'SELECT position FROM events ORDER BY transaction_id DESC, position DESC LIMIT 1',
      );
      const status = await projectionStatus(db.knex, projections);
      // Committed events an open transaction keeps invisible: 'held back' once that has lasted the threshold.
      const heldBack = await heldBackStatus(
        db.knex,
        projections.map((p) => p.name),
      );
      const held = heldBack.heldBack && heldBack.seconds >= config.HELD_BACK_WARN_SECONDS;
      res.json({
        status: held ? 'degraded' : 'ok',
        parts: {
          database: { status: 'ok', latencyMs: Math.round((performance.now() - started) * 10) / 10 },
          eventStore: { status: 'ok', adapter: 'postgres', headPosition: last[0]?.position ?? '0' },
          projections: status.map((p) => ({
            ...p,
            status: held && p.heldBack > 0 ? 'held back' : p.lag < 1000 ? 'ok' : 'lagging',
          })),
          heldBack: {
            status: held ? 'held back' : 'ok',
            ...heldBack,
            seconds: Math.round(heldBack.seconds * 10) / 10,
            ...(held ? { message: describeHeldBack(heldBack) } : {}),
          },
          commandApi: { status: 'ok' },
          queryApi: { status: 'ok' },
          realtime: { status: 'ok', onlineUsers: presence.count },
          mail: {
            status: 'ok',
            transport: config.SMTP_URL ? 'smtp' : config.devMailbox ? 'dev-mailbox' : 'none',
          },
        },
      });
    } catch (error) {
      res
        .status(503)
        .json({ status: 'error', message: 'Backend service not available', error: String(error) });
    }
  });

  const docs = openApiDocument();
  router.get('/api/docs', (_req, res) => {
    res.json(docs);
  });
  router.use(apiReference());

  router.get('/api/config', (_req, res) => {
    const body: PublicConfig = {
      acceptedEmailDomain: config.ACCEPTED_EMAIL_DOMAIN,
      googleClientId: config.GOOGLE_CLIENT_ID ?? null,
      otpSeconds: ACCOUNT_LIMITS.otpSeconds,
      social: {
        facebook: config.SOCIAL_FACEBOOK_URL ?? null,
        instagram: config.SOCIAL_INSTAGRAM_URL ?? null,
        x: config.SOCIAL_X_URL ?? null,
        youtube: config.SOCIAL_YOUTUBE_URL ?? null,
      },
    };
    res.json(body);
  });

  router.get('/api/images/:id', async (req, res) => {
    const id = req.params.id;
    if (!/^[a-f0-9]{24}$/.test(id)) throw notFound('Image not found');
    // An id never names other bytes (a new upload gets a new id), so it is the ETag; but a picture can be taken down
    // (its content deleted): browsers and proxies keep it for minutes at most, then ask again (304 while it exists).
    const etag = `"${id}"`;
    const revalidating = (req.get('if-none-match') ?? '')
      .split(',')
      .some((tag) => tag.trim().replace(/^W\//, '') === etag);
    const row = await db
      .knex('images')
      .where({ id })
      .first<{ content_type: string; bytes?: Buffer } | undefined>(
        revalidating ? ['content_type'] : ['content_type', 'bytes'],
      );
    if (!row) throw notFound('Image not found');
    res.setHeader('Cache-Control', `public, max-age=${IMAGE_MAX_AGE_SECONDS}`);
    res.setHeader('ETag', etag);
    if (revalidating) res.status(304).end();
    else res.type(row.content_type).send(row.bytes);
  });

  if (config.devMailbox) {
    router.get('/dev/mailbox', async (req, res) => {
      // Codes in here open accounts: only the machine running PawHaven may read them.
      if (!isLoopback(req.socket.remoteAddress)) throw notFound();
      const to = typeof req.query.to === 'string' ? req.query.to.trim().toLowerCase() : undefined;
      const q = db
        .knex('dev_mailbox')
        .select('to', 'subject', 'text', 'sent_at')
        .orderBy('id', 'desc')
        .limit(100);
      if (to) q.whereRaw('lower("to") = ?', [to]);
      const rows = (await q) as { to: string; subject: string; text: string; sent_at: Date }[];
      const mails = rows.map((r) => ({
        to: r.to,
        subject: r.subject,
        text: r.text,
        sentAt: r.sent_at.toISOString(),
      }));
      if (to !== undefined || req.accepts(['html', 'json']) === 'json') {
        res.json(mails);
        return;
      }
      const nonce = res.locals.cspNonce as string | undefined;
      res.type('html').send(mailboxPage(mails, nonce));
    });
  }

  return router;
}
