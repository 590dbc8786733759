export * from './test-database';
export * from './decider-spec';
