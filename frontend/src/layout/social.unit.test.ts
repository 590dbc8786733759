import { describe, expect, it } from 'vitest';
import { socialLinks } from './social';

const none = { facebook: null, instagram: null, x: null, youtube: null };

describe("the footer's social links", () => {
  it('are none by default: no account configured, or the settings not read yet', () => {
    expect(socialLinks(none)).toEqual([]);
    expect(socialLinks(undefined)).toEqual([]);
    expect(socialLinks(null)).toEqual([]);
  });

  it("link to the configured accounts only, never to a network's home page", () => {
    expect(
      socialLinks({
        ...none,
        instagram: 'https://www.instagram.com/pawhaven.pk',
        youtube: 'https://www.youtube.com/@pawhaven',
      }),
    ).toEqual([
      { network: 'instagram', label: 'PawHaven on Instagram', href: 'https://www.instagram.com/pawhaven.pk' },
      { network: 'youtube', label: 'PawHaven on YouTube', href: 'https://www.youtube.com/@pawhaven' },
    ]);
  });

  it('drop an address that is not https', () => {
    expect(socialLinks({ ...none, facebook: 'javascript:alert(1)', x: 'http://x.com/pawhaven' })).toEqual([]);
  });
});
