import type { Operation } from '../system/openapi';

/** The notification calls, for the OpenAPI document (TODO). */
export const notificationOperations: Record<string, Operation> = {};
