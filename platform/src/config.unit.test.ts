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
