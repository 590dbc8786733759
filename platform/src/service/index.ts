export * from './context';
export * from './one-at-a-time';
export * from './run-process';
export * from './standalone';
export * from './owned-database';
