export * from './envelope';
export * from './key-store';
export * from './encrypting-event-store';
export * from './legacy-events';
export * from './shredder.projection';
export * from './migration';
export * from './wrap';
export * from './pseudonyms';
