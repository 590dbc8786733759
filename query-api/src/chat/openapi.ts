import type { Operation } from '../system/openapi';

/** The chat calls, for the OpenAPI document (TODO). */
export const chatOperations: Record<string, Operation> = {};
