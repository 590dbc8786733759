export { createCommandApp } from './app';
export { startHousekeeping, type Housekeeping } from './http/housekeeping';
export { idempotentAnswersShredder } from './http/idempotency';
export { releasedImagesReactor } from './images/released-images.reactor';
export type { CommandDeps } from './deps';
export { ensureAdmin } from './accounts/bootstrap-admin';
export { CodeHasher } from './accounts/secrets';
export { createMailer, type Mailer } from './mail/mailer';
export { googleVerifier, type GoogleVerifier } from './accounts/google';
export { ensureDemoUsers, DEMO_PASSWORD } from './accounts/demo-users';
export { pseudonymiseUsernameKeys, usernameKeys } from './accounts/username-keys';
export { DEMO_ADS, demoAdPicture, seedDemoAds } from './adoption/demo-ads';
export { DEMO_POSTS, demoPostPicture, seedDemoPosts } from './community/demo-posts';
export { chatCommands, type ChatCommands } from './chat/routes';
export { conversationDecider, conversationIdFor, type ConversationCommand } from './chat/conversation';
export { seedDemoChat } from './chat/demo-chat';
export { seedId, seedPublicContent } from './directory/seed';
export { directoryImageOrigins } from './directory/image-origins';

// The write model's deciders, ids and streams, for the log simulator (@pawhaven/simulator) that records what they would.
export {
  userDecider,
  type UserCommand,
  type UserEvent,
  type UserEventType,
  type UserState,
} from './accounts/user';
export { sessionDecider, type SessionCommand } from './accounts/session';
export { HOLD_GRACE_SECONDS, USERNAME_MIGRATION_STREAM } from './accounts/claims';
export { adoptionAdDecider, type AdoptionCommand } from './adoption/adoption-ad';
export { postDecider, type PostCommand } from './community/post';
export { postLikeDecider, type PostLikeCommand } from './community/post-like';
export {
  commandReactors,
  prepareCommandSide,
  printFirstStart,
  socketChatCommands,
  startCommandService,
  type CommandService,
  type FirstStart,
} from './service';
