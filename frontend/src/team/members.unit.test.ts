import { describe, expect, it } from 'vitest';
import type { TeamMemberDto } from '@pawhaven/contracts';
import {
  asMembers,
  entriesOf,
  isVerifiedRole,
  landingTeam,
  membersFromState,
  sectionsOf,
  toggleSection,
  type SectionKey,
} from './members';

const member = (
  name: string,
  role: string,
  details: Partial<TeamMemberDto['details']> = {},
): TeamMemberDto => ({
  _id: name,
  id: name,
  name,
  role,
  image: `/media/directory/${name}.svg`,
  summary: '',
  details: { education: [], experience: [], achievements: [], facilities: [], ...details },
  contact: { phone: '', email: '', website: '', location: '' },
});

describe('team cards', () => {
  it("shows the verified badge when the role contains 'Ambassador'", () => {
    expect(isVerifiedRole('Ambassador')).toBe(true);
    expect(isVerifiedRole('Community Ambassador, Lahore')).toBe(true);
    expect(isVerifiedRole('Brand ambassador')).toBe(true);
    expect(isVerifiedRole('Collaborator')).toBe(false);
    expect(isVerifiedRole('')).toBe(false);
    expect(isVerifiedRole(undefined)).toBe(false);
  });

  it('opens one section at a time and closes the open one on a second click', () => {
    let open: SectionKey | null = null;
    open = toggleSection(open, 'education');
    expect(open).toBe('education');
    open = toggleSection(open, 'experience');
    expect(open).toBe('experience');
    open = toggleSection(open, 'achievements');
    expect(open).toBe('achievements');
    open = toggleSection(open, 'achievements');
    expect(open).toBeNull();
  });

  it('offers only the sections that have entries, in order', () => {
    const m = member('Sana', 'Ambassador', {
      achievements: ['Rescued 200 dogs'],
      education: ['DVM'],
      experience: ['', '  '],
      facilities: ['Shelter'],
    });
    expect(sectionsOf(m)).toEqual(['education', 'achievements', 'facilities']);
    expect(entriesOf(['a', '', 3, 'b'])).toEqual(['a', 'b']);
    expect(entriesOf(undefined)).toEqual([]);
  });

  it("shows the first three on the landing page and 'See More' only when there are more", () => {
    const four = ['a', 'b', 'c', 'd'].map((n) => member(n, 'Collaborator'));
    expect(landingTeam(four).shown.map((m) => m.name)).toEqual(['a', 'b', 'c']);
    expect(landingTeam(four).hasMore).toBe(true);
    expect(landingTeam(four.slice(0, 3)).hasMore).toBe(false);
    expect(landingTeam([]).shown).toEqual([]);
  });

  it('reads allMembers from the navigation state, and nothing else', () => {
    const all = [member('a', 'Ambassador'), member('b', 'Collaborator')];
    expect(membersFromState({ allMembers: all })).toEqual(all);
    expect(membersFromState(null)).toBeNull();
    expect(membersFromState({})).toBeNull();
    expect(membersFromState({ allMembers: [] })).toBeNull();
    expect(membersFromState({ allMembers: [{ name: 'x' }] })).toBeNull();
    expect(membersFromState({ allMembers: 'all' })).toBeNull();
  });

  it('keeps only members from an API answer', () => {
    expect(asMembers(null)).toEqual([]);
    expect(asMembers([member('a', 'Ambassador'), 42, { role: 'x' }]).map((m) => m.name)).toEqual(['a']);
  });
});
