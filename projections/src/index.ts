import { importableFrom } from '@pawhaven/platform';
import { sessionsProjection } from './accounts/sessions.projection';
import { usersProjection } from './accounts/users.projection';
import { adoptionAdsProjection } from './adoption/adoption-ads.projection';
import { adoptionAuditProjection } from './adoption/adoption-audit.projection';
import { userAdoptionStatsProjection } from './adoption/user-adoption-stats.projection';
import { communityPostsProjection } from './community/community-posts.projection';
import { userActivityProjection } from './community/user-activity.projection';
import { chatProjection } from './chat/chat.projection';
import { notificationsProjection } from './notifications/notifications.projection';
import { contactMessagesProjection } from './directory/contact-messages.projection';
import { directoryProjection } from './directory/directory.projection';
import { landingStatsProjection } from './directory/landing-stats.projection';

export { allMigrations, readModelMigrations } from './migrations';

/** Every read model of the product, by name (`npm run projections -- rebuild <name|all>`). */
export const allProjections = importableFrom(import.meta.url, 'allProjections', [
  usersProjection,
  sessionsProjection,
  adoptionAdsProjection,
  adoptionAuditProjection,
  userAdoptionStatsProjection,
  communityPostsProjection,
  userActivityProjection,
  chatProjection,
  notificationsProjection,
  directoryProjection,
  landingStatsProjection,
  contactMessagesProjection,
]);
export { notificationId } from './notifications/notifications.rows';
export type { UserRow } from './accounts/users.projection';
export type { AdRow, RequestRow } from './adoption/adoption-ads.projection';
export type { AuditRow } from './adoption/adoption-audit.projection';
export type { ClinicRow, FaqRow, NgoRow, TeamMemberRow } from './directory/directory.projection';
export type { Totals as LandingStatsTotals } from './directory/landing-stats.projection';
