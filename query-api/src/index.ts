export { createQueryApp, POST_QUERIES } from './app';
export type { QueryDeps } from './deps';
export { attachRealtime } from './realtime/socket';
export { Presence } from './realtime/presence';
export { listAdoptionAds } from './adoption/listing';
export { listPosts } from './community/posts';
export { openApiDocument, operations, type Operation } from './system/openapi';
export { listNotifications, unreadCount } from './notifications/queries';
