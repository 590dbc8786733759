import type { Knex } from 'knex';
import { ADMIN_LIMITS, type AdminOverviewDto } from '@pawhaven/contracts';

/**
 * The dashboard's overview in one statement (one snapshot): users by kind, ads and requests by status, content
 * totals, and sign-ups per ISO week (Monday, UTC) over the last 12 weeks, zero-filled, oldest first.
 */
export async function adminOverview(knex: Knex): Promise<AdminOverviewDto> {
  const { rows } = await knex.raw<{ rows: { o: AdminOverviewDto }[] }>(
    `WITH weeks AS (
       SELECT generate_series(
         date_trunc('week', now() AT TIME ZONE 'UTC') - make_interval(weeks => ? - 1),
         date_trunc('week', now() AT TIME ZONE 'UTC'),
         interval '1 week') AS week_start)
     SELECT json_build_object(
       'veterinarians', (SELECT count(*) FROM users WHERE is_veterinarian AND NOT is_admin),
       'regularUsers', (SELECT count(*) FROM users WHERE NOT is_veterinarian AND NOT is_admin),
       'admins', (SELECT count(*) FROM users WHERE is_admin),
       'ads', (SELECT json_build_object(
           'available', count(*) FILTER (WHERE status = 'available' AND deleted_at IS NULL),
           'adopted', count(*) FILTER (WHERE status = 'adopted' AND deleted_at IS NULL),
           'deleted', count(*) FILTER (WHERE deleted_at IS NOT NULL OR status = 'deleted'),
           'total', count(*)) FROM adoption_ads),
       'requests', (SELECT json_build_object(
           'pending', count(*) FILTER (WHERE status = 'pending'),
           'accepted', count(*) FILTER (WHERE status = 'accepted'),
           'rejected', count(*) FILTER (WHERE status = 'rejected'),
           'withdrawn', count(*) FILTER (WHERE status = 'withdrawn'),
           'closed', count(*) FILTER (WHERE status = 'closed'),
           'total', count(*)) FROM adoption_requests),
       'posts', (SELECT count(*) FROM posts),
       'comments', (SELECT count(*) FROM post_comments WHERE NOT deleted),
       'messages', (SELECT count(*) FROM chat_messages),
       'signUpsPerWeek', (SELECT json_agg(json_build_object(
           'weekStart', to_char(w.week_start, 'YYYY-MM-DD'),
           'count', (SELECT count(*) FROM users u
                     WHERE NOT u.is_admin
                       AND u.joined_date >= w.week_start AT TIME ZONE 'UTC'
                       AND u.joined_date < (w.week_start + interval '1 week') AT TIME ZONE 'UTC'))
           ORDER BY w.week_start) FROM weeks w)
     ) AS o`,
    [ADMIN_LIMITS.signUpWeeks],
  );
  return rows[0]!.o;
}
