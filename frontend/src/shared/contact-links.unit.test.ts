import { describe, expect, it } from 'vitest';
import { mailtoHref, telHref } from './contact-links';

describe('mailto: links', () => {
  it('link to the one address written', () => {
    expect(mailtoHref(' info@paws.org.pk ')).toBe('mailto:info@paws.org.pk');
    expect(mailtoHref("o'neil+pets@gmail.com")).toBe("mailto:o'neil%2Bpets@gmail.com");
  });

  it('cannot be given more recipients, headers or a body by what was typed', () => {
    const href = mailtoHref('a@b.co?cc=x%40evil.example&body=hi');
    expect(href).toBe('mailto:a@b.co%3Fcc%3Dx%2540evil.example%26body%3Dhi');
    const url = new URL(href);
    expect(url.search).toBe('');
    // Two addresses typed as one stay one (odd) address: no comma separates recipients.
    expect(mailtoHref('a@b.co,c@d.co')).toBe('mailto:a%40b.co%2Cc@d.co');
    expect(mailtoHref('x@y.co#frag')).toBe('mailto:x@y.co%23frag');
  });
});

describe('tel: links', () => {
  it('keep the digits and a leading plus only', () => {
    expect(telHref('+92 42 111-222-333')).toBe('tel:+9242111222333');
    expect(telHref('(021) 3586 1234')).toBe('tel:02135861234');
    expect(telHref('0300 1234567?call=1234')).toBe('tel:030012345671234');
    expect(telHref('0300+1234567')).toBe('tel:03001234567');
  });
});
