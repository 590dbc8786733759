export * from './accounts';
export * from './http';
export * from './events/user-events';
export * from './adoption';
export * from './events/adoption-events';
export * from './events/adoption-values';
export * from './community';
export * from './events/community-events';
