import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinicInput, faqInput, ngoInput, teamMemberInput } from '@pawhaven/contracts';
import { SEED_DIR } from './seed';

/**
 * The seed files shipped in data/seed are plainly fictional samples: example domains, clearly fake phone numbers,
 * pictures we drew ourselves (frontend/public/media/directory). The shipped counts: 13 NGOs, 14 clinics.
 */

type Entry = Record<string, unknown> & { key: string };
const entries = (file: string): Entry[] =>
  (JSON.parse(readFileSync(path.join(SEED_DIR, file), 'utf8')) as { entries: Entry[] }).entries;

const ngos = entries('ngos.json');
const clinics = entries('clinics.json');
const faq = entries('faq.json');
const team = entries('team.json');
const all = [...ngos, ...clinics, ...faq, ...team];

const MEDIA = path.resolve(SEED_DIR, '../../frontend/public');
/** Every string anywhere in a value. */
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(strings)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(strings)
        : [];

describe('the shipped seed files', () => {
  it('hold the shipped counts and valid entries with unique keys', () => {
    expect(ngos).toHaveLength(13);
    expect(clinics).toHaveLength(14);
    expect(faq.length).toBeGreaterThanOrEqual(10);
    expect(team.length).toBeGreaterThanOrEqual(5);
    const check = (schema: { parse(v: unknown): unknown }, list: Entry[]) =>
      list.forEach(({ key: _key, ...entry }) => schema.parse(entry));
    check(ngoInput, ngos);
    check(clinicInput, clinics);
    check(faqInput, faq);
    check(teamMemberInput, team);
    for (const list of [ngos, clinics, faq, team])
      expect(new Set(list.map((e) => e.key)).size).toBe(list.length);
  });

  it('has ambassadors and collaborators, more than the three the landing page shows', () => {
    const roles = team.map((m) => String(m.role));
    expect(roles.filter((r) => r.includes('Ambassador')).length).toBeGreaterThan(0);
    expect(roles.filter((r) => r.includes('Collaborator')).length).toBeGreaterThan(0);
    expect(team.length).toBeGreaterThan(3);
  });

  it('uses only example e-mail domains, example websites and clearly fake phone numbers', () => {
    const text = all.flatMap(strings);
    const emails = text.filter((s) => s.includes('@'));
    const phones = all.flatMap((e) => strings((e as { contact?: { phone?: string } }).contact?.phone));
    const urls = text.filter((s) => /^https?:/.test(s));
    expect(emails.length).toBeGreaterThanOrEqual(13);
    for (const email of emails)
      expect(email).toMatch(/@([a-z0-9-]+\.)*(example\.(org|com|net)|[a-z0-9-]+\.test)$/);
    expect(phones).toHaveLength(ngos.length + clinics.length + team.length);
    for (const phone of phones) expect(phone).toMatch(/^\+92 300 0000\d{3}$/);
    expect(new Set(phones).size).toBe(phones.length);
    for (const url of urls) expect(new URL(url).hostname).toMatch(/(^|\.)example\.(org|com|net)$/);
  });

  it('places NGOs in Pakistani cities', () => {
    const cities = [
      'Lahore',
      'Karachi',
      'Islamabad',
      'Rawalpindi',
      'Faisalabad',
      'Multan',
      'Peshawar',
      'Quetta',
    ];
    const named = ngos.filter((n) => cities.some((c) => String(n.description).includes(c)));
    expect(named.length).toBeGreaterThanOrEqual(8);
  });

  it('points every picture at one of our own small illustrations, and uses several of them', () => {
    const images = [...ngos, ...clinics, ...team].map((e) => String(e.image));
    for (const image of images) {
      expect(image).toMatch(/^\/media\/directory\/[a-z0-9-]+\.svg$/);
      const file = path.join(MEDIA, image);
      expect(existsSync(file), image).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(svg.length).toBeLessThan(4096);
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      // Nothing that runs or loads from elsewhere.
      expect(svg).not.toMatch(/<script|href=|url\(/i);
    }
    expect(new Set(images).size).toBeGreaterThanOrEqual(6);
  });
});
