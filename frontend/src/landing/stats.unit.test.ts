import { describe, expect, it } from 'vitest';
import { formatCount, statFigures } from './stats';

const values = (stats: unknown) => statFigures(stats).map((f) => `${f.label}:${f.value}`);

describe('landing stats strip', () => {
  it('shows placeholders without figures: 0k for adoption, rescued and clients, 4+ for services', () => {
    const placeholders = ['Adoption:0k', 'Rescued:0k', 'Clients:0k', 'Services:4+'];
    expect(values(null)).toEqual(placeholders);
    expect(values(undefined)).toEqual(placeholders);
    expect(values('oops')).toEqual(placeholders);
    // An empty database answers zeros.
    expect(values({ adsPublished: 0, petsAdopted: 0, registeredVets: 0, communityMembers: 0 })).toEqual(
      placeholders,
    );
    expect(statFigures(null).every((f) => !f.live)).toBe(true);
  });

  it('shows live figures where there are some and placeholders for the rest', () => {
    const figures = statFigures({
      adsPublished: 12,
      petsAdopted: 3,
      registeredVets: 0,
      communityMembers: 1530,
    });
    expect(figures.map((f) => `${f.label}:${f.value}`)).toEqual([
      'Adoption:3',
      'Rescued:12',
      'Clients:1.5k',
      'Services:4+',
    ]);
    expect(figures.map((f) => f.live)).toEqual([true, true, true, false]);
    // The line under a figure says what it counts; under the placeholder, what it stands for.
    expect(figures[3]!.caption).toBe('care services for your pet');
    expect(statFigures({ registeredVets: 7 })[3]!.caption).toBe('registered vets ready to help');
  });

  it('ignores values that are not counts', () => {
    expect(
      values({ adsPublished: -4, petsAdopted: Number.NaN, registeredVets: '7', communityMembers: Infinity }),
    ).toEqual(['Adoption:0k', 'Rescued:0k', 'Clients:0k', 'Services:4+']);
  });

  it('formats counts shortly without rounding up', () => {
    expect(formatCount(1)).toBe('1');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1k');
    expect(formatCount(1250)).toBe('1.2k');
    expect(formatCount(9999)).toBe('9.9k');
    expect(formatCount(15_400)).toBe('15k');
    expect(formatCount(999_999)).toBe('999k');
    expect(formatCount(2_500_000)).toBe('2.5M');
    expect(formatCount(7.8)).toBe('7');
  });
});
