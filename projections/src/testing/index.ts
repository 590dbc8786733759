export * from './realistic-log';
export * from '../community/community-log.testing';
