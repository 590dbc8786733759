export * from '../community/community-log.testing';
