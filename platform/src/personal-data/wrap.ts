import type pg from 'pg';
import type { EventStore } from '../event-store/event-store';
import { EncryptingEventStore } from './encrypting-event-store';
import { PersonalDataKeys } from './key-store';
import { resolvePseudonyms, type Pseudonyms } from './pseudonyms';

/**
 * The store the app uses: any adapter, with personal fields sealed under keys kept in this database, and personal
 * stream ids kept under pseudonyms. Without `pseudonyms` (tools, tests) the secret is read from this database on
 * first need, as the app keeps it when PSEUDONYM_SECRET is not set.
 */
export const withPersonalDataEncryption = (
  inner: EventStore,
  keysPool: pg.Pool,
  pseudonyms?: Pseudonyms,
): EncryptingEventStore =>
  new EncryptingEventStore(
    inner,
    new PersonalDataKeys(keysPool),
    pseudonyms ?? (() => resolvePseudonyms(keysPool)),
  );
