import { describe, expect, it } from 'vitest';
import { usernameKeys } from './username-keys';

const collide = (a: string, b: string) => usernameKeys(a).some((k) => usernameKeys(b).includes(k));

describe('username keys', () => {
  it.each([
    ['admin', 'аdmin', 'Cyrillic а'],
    ['admin', 'аdmіn', 'Cyrillic а and і'],
    ['admin', 'ADMIN', 'case'],
    ['admin', 'ａｄｍｉｎ', 'full-width letters (NFKC)'],
    ['admin', 'adrnin', "'rn' for 'm'"],
    ['Alex', 'AIex', "capital I for 'l'"],
    ['bill', 'bi11', "'1' for 'l'"],
    ['paulo', 'PAUL0', "'0' for 'O'"],
    ['Ali Khan', 'Ali  Khan', 'doubled space'],
    ['Strasse', 'straße', "'ß'"],
    ['Sana Malik', '\u0405\u0430n\u0430 \u041c\u0430l\u0456k', 'Cyrillic Ѕ, а, М and і'],
  ])('%j and %j collide (%s)', (a, b) => expect(collide(a, b)).toBe(true));

  it.each([
    ['Ali', 'All'],
    ['Ali', 'Alia'],
    ['Bilal', 'Bilal2'],
    ['Jose', 'José'],
    ['ad-min', 'ad_min'],
    ['Ayesha', 'Aysha'],
  ])('%j and %j stay different names', (a, b) => expect(collide(a, b)).toBe(false));

  it('is case-insensitive for every name, including capital I', () => {
    for (const name of ['Ali', 'Bilal Ahmed', 'user1kia', 'IIIyas']) {
      expect(collide(name, name.toUpperCase())).toBe(true);
      expect(collide(name, name.toLowerCase())).toBe(true);
    }
  });

  it('gives one key to most names and two to names with capitals that look like other letters', () => {
    expect(usernameKeys('sana malik')).toHaveLength(1);
    expect(usernameKeys('AIex')).toHaveLength(2);
  });
});
