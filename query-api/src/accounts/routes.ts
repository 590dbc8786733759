import { Router } from 'express';
import { userIdBody } from '@pawhaven/contracts';
import { currentUserId, notFound, requireUser } from '@pawhaven/platform';
import type { QueryDeps } from '../deps';
import {
  PROFILE_COUNT_COLUMNS,
  toPublicUserDto,
  toUserDto,
  USER_COLUMNS,
  withCounts,
  type ProfileCounts,
  type UserRow,
} from './users';

/** Reads of the auth root, served from the `users` read model. */
export function accountQueries({ db, presence, tokens }: QueryDeps): Router {
  const router = Router();
  const users = () =>
    db
      .knex('users as u')
      .leftJoin('user_activity as ua', 'ua.user_id', 'u.id')
      .select(db.knex.raw(USER_COLUMNS));
  const findUser = async (id: string) => (await users().where('u.id', id).first()) as UserRow | undefined;

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

  /** A profile page: the user, when they joined and were last active, and how many posts and available ads. */
  router.get('/profile/:userId', async (req, res) => {
    const row = (await users()
      .select(db.knex.raw(PROFILE_COUNT_COLUMNS))
      .where('u.id', req.params.userId)
      .first()) as (UserRow & ProfileCounts) | undefined;
    if (!row || !row.verified) {
      res.status(404).json({ success: false, message: 'Failed to load profile', error: 'User not found' });
      return;
    }
    // The owner (and admins) see their own contact details; everyone else the public fields.
    const own = req.auth && (req.auth.userId === row.id || req.auth.isAdmin);
    res.json({
      success: true,
      message: 'Profile loaded',
      data: withCounts(own ? toUserDto(row, presence) : toPublicUserDto(row, presence), row),
    });
  });

  router.post('/getUserById', requireUser, async (req, res) => {
    const { id } = userIdBody.parse(req.body);
    const row = await findUser(id);
    if (!row || !row.verified) throw notFound('User not found');
    res.json({ success: true, data: toPublicUserDto(row, presence) });
  });

  router.post('/getAllUsers', requireUser, async (_req, res) => {
    const rows = (await users()
      .where({ 'u.verified': true, 'u.is_admin': false })
      .orderBy('u.username')
      .limit(1000)) as UserRow[];
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
