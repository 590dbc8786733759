import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe("the social accounts' settings", () => {
  it('are unset by default, and an empty variable is unset too', () => {
    const config = loadConfig({ SOCIAL_X_URL: '' });
    expect(config.SOCIAL_FACEBOOK_URL).toBeUndefined();
    expect(config.SOCIAL_INSTAGRAM_URL).toBeUndefined();
    expect(config.SOCIAL_X_URL).toBeUndefined();
    expect(config.SOCIAL_YOUTUBE_URL).toBeUndefined();
  });

  it('take an https address', () => {
    expect(loadConfig({ SOCIAL_FACEBOOK_URL: 'https://www.facebook.com/pawhaven' }).SOCIAL_FACEBOOK_URL).toBe(
      'https://www.facebook.com/pawhaven',
    );
  });

  it.each([
    'http://www.facebook.com/pawhaven',
    'www.facebook.com/pawhaven',
    'javascript:alert(1)',
    'https://',
  ])('refuse %s at start, naming the setting', (value) => {
    expect(() => loadConfig({ SOCIAL_YOUTUBE_URL: value })).toThrow(
      'Invalid configuration: SOCIAL_YOUTUBE_URL: must be an https:// address',
    );
  });
});

describe("the bus's settings", () => {
  it('default to following the store, with a local broker named for later', () => {
    const config = loadConfig({});
    expect(config.EVENT_BUS).toBe('none');
    expect(config.KAFKA_BROKERS).toEqual(['localhost:9092']);
    expect(config.KAFKA_TOPIC).toBe('pawhaven.events');
    expect(config.KAFKA_PARTITIONS).toBe(4);
  });

  it('take a list of brokers and refuse what is not host:port, naming the setting', () => {
    expect(loadConfig({ KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9092' }).KAFKA_BROKERS).toEqual([
      'kafka-1:9092',
      'kafka-2:9092',
    ]);
    expect(() => loadConfig({ KAFKA_BROKERS: 'kafka-1' })).toThrow(
      'Invalid configuration: KAFKA_BROKERS.0: must be host:port',
    );
    expect(() => loadConfig({ EVENT_BUS: 'rabbitmq' })).toThrow('Invalid configuration: EVENT_BUS');
    expect(() => loadConfig({ KAFKA_TOPIC: 'pawhaven events' })).toThrow(
      'Invalid configuration: KAFKA_TOPIC',
    );
  });
});

describe("the event store's settings", () => {
  it('default to PostgreSQL, with a local KurrentDB named for later', () => {
    const config = loadConfig({});
    expect(config.EVENT_STORE).toBe('postgres');
    expect(config.KURRENTDB_URL).toBe('kurrentdb://localhost:2113?tls=false');
  });

  it('take a KurrentDB connection string and refuse anything else, naming the setting', () => {
    const config = loadConfig({
      EVENT_STORE: 'kurrentdb',
      KURRENTDB_URL: 'kurrentdb://kurrentdb:2113?tls=false',
    });
    expect(config.EVENT_STORE).toBe('kurrentdb');
    expect(config.KURRENTDB_URL).toBe('kurrentdb://kurrentdb:2113?tls=false');
    expect(loadConfig({ KURRENTDB_URL: 'esdb+discover://a:2113,b:2113' }).KURRENTDB_URL).toMatch(/^esdb/);
    expect(() => loadConfig({ EVENT_STORE: 'mongodb' })).toThrow('Invalid configuration: EVENT_STORE');
    expect(() => loadConfig({ KURRENTDB_URL: 'http://localhost:2113' })).toThrow(
      'Invalid configuration: KURRENTDB_URL: must be a kurrentdb:// connection string',
    );
  });
});
