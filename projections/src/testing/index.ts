export * from './realistic-log';
