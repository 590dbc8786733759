export * from './test-database';
export * from './decider-spec';
export * from './event-store';
