import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@pawhaven/platform';
import { startTestApp, type TestApp } from '@pawhaven/testing';

/** GET /api/config hands the frontend the settings it needs at run time, here PawHaven's social accounts. */

let t: TestApp;

beforeAll(async () => {
  const env = loadConfig({
    SOCIAL_INSTAGRAM_URL: 'https://www.instagram.com/pawhaven.pk',
    SOCIAL_YOUTUBE_URL: 'https://www.youtube.com/@pawhaven',
    SOCIAL_X_URL: '',
  });
  t = await startTestApp({
    config: {
      SOCIAL_FACEBOOK_URL: env.SOCIAL_FACEBOOK_URL,
      SOCIAL_INSTAGRAM_URL: env.SOCIAL_INSTAGRAM_URL,
      SOCIAL_X_URL: env.SOCIAL_X_URL,
      SOCIAL_YOUTUBE_URL: env.SOCIAL_YOUTUBE_URL,
    },
  });
});
afterAll(async () => {
  await t?.stop();
});

describe('GET /api/config', () => {
  it('names the configured social accounts and null for the others (an empty setting is unset)', async () => {
    const res = await t.api.get('/api/config');
    expect(res.status).toBe(200);
    expect(res.body.social).toEqual({
      facebook: null,
      instagram: 'https://www.instagram.com/pawhaven.pk',
      x: null,
      youtube: 'https://www.youtube.com/@pawhaven',
    });
  });
});
