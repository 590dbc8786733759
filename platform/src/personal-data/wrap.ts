import type pg from 'pg';
import type { EventStore } from '../event-store/event-store';
import { EncryptingEventStore } from './encrypting-event-store';
import { PersonalDataKeys } from './key-store';

/** The store the app uses: any adapter, with personal fields sealed under keys kept in this database. */
export const withPersonalDataEncryption = (inner: EventStore, keysPool: pg.Pool): EncryptingEventStore =>
  new EncryptingEventStore(inner, new PersonalDataKeys(keysPool));
