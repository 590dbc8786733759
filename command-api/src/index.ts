export { createCommandApp } from './app';
export type { CommandDeps } from './deps';
export { ensureAdmin } from './accounts/bootstrap-admin';
export { CodeHasher } from './accounts/secrets';
export { createMailer, type Mailer } from './mail/mailer';
export { googleVerifier, type GoogleVerifier } from './accounts/google';
export type { UserEvent, UserEventType } from './accounts/user';
export { ensureDemoUsers, DEMO_PASSWORD } from './accounts/demo-users';
export { seedDemoAds } from './adoption/demo-ads';
