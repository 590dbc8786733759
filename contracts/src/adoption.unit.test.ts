import { describe, expect, it } from 'vitest';
import { adoptionAdBody, ADOPTION_MESSAGES, ageText } from './adoption';

const ad = {
  name: 'Moti',
  age: '2',
  location: 'Lahore',
  petType: 'Dog',
  description: 'A friendly dog.',
};
const firstMessage = (input: Record<string, unknown>) => {
  const parsed = adoptionAdBody.safeParse(input);
  return parsed.success ? null : parsed.error.issues[0]!.message;
};

describe('an ad without a pet type', () => {
  it("says 'Pet type is required' when none is chosen (absent, empty or blank, as the form sends it)", () => {
    const { petType: _, ...withoutType } = ad;
    expect(firstMessage(withoutType)).toBe('Pet type is required');
    expect(firstMessage({ ...ad, petType: '' })).toBe('Pet type is required');
    expect(firstMessage({ ...ad, petType: '  ' })).toBe('Pet type is required');
    expect(firstMessage({ ...ad, petType: null })).toBe('Pet type is required');
  });

  it('names the choices when the type is not one of them', () => {
    expect(firstMessage({ ...ad, petType: 'Dragon' })).toBe(
      'Pet type must be one of Dog, Cat, Bird, Rabbit, Hamster, Other',
    );
    expect(ADOPTION_MESSAGES.petTypeUnknown).toBe(
      'Pet type must be one of Dog, Cat, Bird, Rabbit, Hamster, Other',
    );
    expect(firstMessage(ad)).toBeNull();
  });
});

describe('ageText, the age as the site and the admin show it', () => {
  it.each([
    ['0', 'yrs', '0 yrs'],
    ['1', 'yrs', '1 yr'],
    ['2', 'yrs', '2 yrs'],
    ['0', 'months', '0 months'],
    ['1', 'months', '1 month'],
    ['2', 'months', '2 months'],
    ['1', 'weeks', '1 week'],
    ['3', 'weeks', '3 weeks'],
  ])('%s %s → %s', (age, ageUnit, shown) => {
    expect(ageText({ age, ageUnit })).toBe(shown);
  });

  it("uses 'yrs' without a unit and says 'Age N/A' without an age", () => {
    expect(ageText({ age: '1', ageUnit: '' })).toBe('1 yr');
    expect(ageText({ age: '3', ageUnit: null })).toBe('3 yrs');
    expect(ageText({ age: ' 1 ', ageUnit: 'yrs' })).toBe('1 yr');
    expect(ageText({ age: ' ', ageUnit: 'yrs' })).toBe('Age N/A');
    expect(ageText({ age: null, ageUnit: 'months' })).toBe('Age N/A');
  });
});
