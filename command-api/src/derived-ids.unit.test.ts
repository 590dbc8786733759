import { describe, expect, it } from 'vitest';
import { nameUuid } from '@pawhaven/platform';
import { conversationIdFor } from './chat/conversation';
import { seedId } from './directory/seed';

/** Ids already recorded in event logs: deriving them in one place must not change a single one. */
describe('nameUuid', () => {
  it('gives the conversation and seed ids the logs already hold', () => {
    const a = '0f8c2d4e-1a2b-4c3d-8e9f-000000000001';
    const b = '0f8c2d4e-1a2b-4c3d-8e9f-000000000002';
    expect(nameUuid(`pawhaven-conversation:${a}:${b}`)).toBe('fe01ec3e-2122-5d7a-ba60-83e4722a1c4d');
    expect(conversationIdFor(b, a)).toBe('fe01ec3e-2122-5d7a-ba60-83e4722a1c4d');
    expect(conversationIdFor('b', 'a')).toBe('72f4a1cd-78f0-53c5-8ed4-553893c07bdc');
    expect(nameUuid('pawhaven-seed\nngo:Edhi Foundation')).toBe('45889d4e-98bc-5968-bbf2-7c25e226e9cd');
    expect(seedId('ngo:Edhi Foundation')).toBe('45889d4e-98bc-5968-bbf2-7c25e226e9cd');
    expect(seedId('')).toBe('3c3874c0-fc13-55aa-8e87-b5f1586f5741');
  });

  it('is a version-5, RFC 9562 variant UUID', () => {
    for (const name of ['', 'x', 'pawhaven-seed\nfaq:1', 'ünïcødé']) {
      expect(nameUuid(name)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});
