import { Router } from 'express';
import { userIdBody } from '@pawhaven/contracts';
import { currentUserId, notFound, requireUser } from '@pawhaven/platform';
import type { QueryDeps } from '../deps';
import { toPublicUserDto, toUserDto, type UserRow } from './users';

/** Reads of the auth root, served from the `users` read model. */
export function accountQueries({ db, presence, tokens }: QueryDeps): Router {
  const router = Router();
  const findUser = (id: string) => db.knex<UserRow>('users').where({ id }).first();

  router.get('/profile', requireUser, async (req, res) => {
    const row = await findUser(currentUserId(req));
    if (!row) throw notFound('User not found');
    res.json({
      success: true,
      message: 'Profile loaded',
      data: toUserDto(row, presence),
      user: toUserDto(row, presence),
    });
  });

  router.get('/profile/:userId', async (req, res) => {
    const row = await findUser(req.params.userId);
    if (!row || !row.verified) {
      res.status(404).json({ success: false, message: 'Failed to load profile', error: 'User not found' });
      return;
    }
    // The owner (and admins) see their own contact details; everyone else the public fields.
    const own = req.auth && (req.auth.userId === row.id || req.auth.isAdmin);
    res.json({
      success: true,
      message: 'Profile loaded',
      data: own ? toUserDto(row, presence) : toPublicUserDto(row, presence),
    });
  });

  router.post('/getUserById', requireUser, async (req, res) => {
    const { id } = userIdBody.parse(req.body);
    const row = await findUser(id);
    if (!row || !row.verified) throw notFound('User not found');
    res.json({ success: true, data: toPublicUserDto(row, presence) });
  });

  router.post('/getAllUsers', requireUser, async (_req, res) => {
    const rows = await db
      .knex<UserRow>('users')
      .where({ verified: true, is_admin: false })
      .orderBy('username')
      .limit(1000);
    res.json({ success: true, data: rows.map((r) => toPublicUserDto(r, presence)) });
  });

  router.get('/debug-token', requireUser, async (req, res) => {
    const token = req.headers.authorization!.slice(7);
    const claims = await tokens.verify(token);
    res.json({
      success: true,
      valid: true,
      userId: claims?.userId,
      isAdmin: claims?.isAdmin,
      expiresAt: claims?.expiresAt,
    });
  });

  return router;
}
