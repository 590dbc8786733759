import { describe, expect, it } from 'vitest';
import { clinicMatches, filterClinics, filterNgos, ngoMatches, normaliseTerm, pickSource } from './search';

const ngos = [
  { name: 'Edhi Foundation Animal Shelter', description: 'Rescue and shelter in Karachi.' },
  { name: 'Lahore Paws', description: 'Street dog vaccination drives.' },
  { name: 'ACF Animal Rescue', description: 'Emergency treatment across KARACHI and Lahore.' },
];
const clinics = [
  { name: 'Pet Care Clinic', location: 'Gulberg, Lahore' },
  { name: 'Karachi Vet Hospital', location: 'Clifton, Karachi' },
  { name: 'Islamabad Animal Hospital', location: 'F-10 Markaz, Islamabad' },
];

describe('directory search', () => {
  it('normalises a term as the server does: trimmed, lower-cased, at most 200 characters', () => {
    expect(normaliseTerm('  LaHoRe \n')).toBe('lahore');
    expect(normaliseTerm(null)).toBe('');
    expect(normaliseTerm('x'.repeat(300))).toHaveLength(200);
  });

  it('matches NGOs by name or description, case-insensitively, by substring', () => {
    expect(filterNgos(ngos, 'lahore').map((n) => n.name)).toEqual(['Lahore Paws', 'ACF Animal Rescue']);
    expect(filterNgos(ngos, 'KARACHI').map((n) => n.name)).toEqual([
      'Edhi Foundation Animal Shelter',
      'ACF Animal Rescue',
    ]);
    expect(filterNgos(ngos, 'vaccin').map((n) => n.name)).toEqual(['Lahore Paws']);
    expect(filterNgos(ngos, 'animal shelter')).toHaveLength(1);
    expect(filterNgos(ngos, 'zebra')).toEqual([]);
  });

  it('matches clinics by name or location only', () => {
    expect(filterClinics(clinics, 'hospital').map((c) => c.name)).toEqual([
      'Karachi Vet Hospital',
      'Islamabad Animal Hospital',
    ]);
    expect(filterClinics(clinics, 'clifton').map((c) => c.name)).toEqual(['Karachi Vet Hospital']);
    expect(filterClinics(clinics, 'f-10').map((c) => c.name)).toEqual(['Islamabad Animal Hospital']);
    // An NGO-style description field is not searched for clinics.
    expect(clinicMatches({ name: 'A', location: 'B', description: 'lahore' } as never, 'lahore')).toBe(false);
  });

  it('shows everything for an empty or blank query', () => {
    expect(filterNgos(ngos, '')).toHaveLength(3);
    expect(filterNgos(ngos, '   ')).toHaveLength(3);
    expect(filterClinics(clinics, '')).toHaveLength(3);
    expect(ngoMatches({ name: '', description: '' }, '')).toBe(true);
  });

  it('treats the term as plain text (no patterns)', () => {
    const odd = [{ name: '100% Paws (Pvt.)', description: 'a_b' }];
    expect(filterNgos(odd, '100%')).toHaveLength(1);
    expect(filterNgos(odd, '(pvt.)')).toHaveLength(1);
    expect(filterNgos(odd, '_')).toHaveLength(1);
    expect(filterNgos(odd, '.*')).toHaveLength(0);
  });

  it('tolerates a missing field', () => {
    expect(ngoMatches({ name: 'Paws', description: undefined as never }, 'paws')).toBe(true);
    expect(clinicMatches({ name: 'Vet', location: null as never }, 'lahore')).toBe(false);
  });
});

describe('pickSource', () => {
  const all = { term: '', items: [1, 2, 3, 4] };
  const lah = { term: 'lah', items: [1, 2] };
  const kar = { term: 'kar', items: [3] };

  it('takes the loaded list of the longest term the new term contains', () => {
    expect(pickSource([all, lah, kar], 'Lahore')).toBe(lah);
    expect(pickSource([all, lah, kar], ' LAH ')).toBe(lah);
    expect(pickSource([all, lah, kar], 'karachi')).toBe(kar);
    expect(pickSource([lah, all], 'islamabad')).toBe(all);
  });

  it('finds none when no loaded term is contained (a shorter term needs the server)', () => {
    expect(pickSource([lah, kar], 'la')).toBeNull();
    expect(pickSource([lah], '')).toBeNull();
    expect(pickSource([], 'x')).toBeNull();
  });

  it('gives exactly the matches of the new term once filtered', () => {
    const lahoreList = filterNgos(ngos, 'lah');
    const source = pickSource([{ term: 'lah', items: lahoreList }], 'lahore p')!;
    expect(filterNgos(source.items, 'lahore p')).toEqual(filterNgos(ngos, 'lahore p'));
  });
});
