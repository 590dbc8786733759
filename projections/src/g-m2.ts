import { randomUUID } from 'node:crypto';
import { memoryStore } from '@pawhaven/platform/src/projections/row-store';
