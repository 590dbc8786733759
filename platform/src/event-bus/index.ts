export * from './kafka-client';
export * from './kafka-messages';
export * from './kafka-relay';
export * from './kafka-projections';
