export * from './accounts';
export * from './http';
export * from './events/user-events';
