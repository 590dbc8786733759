import type { TeamMemberDto } from '@pawhaven/contracts';

/**
 * The team cards' rules: the verified badge when the role contains 'Ambassador'; the details in sections that open one
 * at a time; the landing page's first three cards; the member list handed to /team in the navigation state
 * (`allMembers`).
 */

export type SectionKey = 'education' | 'experience' | 'achievements' | 'facilities';

export const SECTION_LABELS: Record<SectionKey, string> = {
  education: 'Education',
  experience: 'Experience',
  achievements: 'Achievements',
  facilities: 'Facilities',
};

const SECTION_ORDER: readonly SectionKey[] = ['education', 'experience', 'achievements', 'facilities'];

/** How many cards the landing page shows before 'See More Team Members'. */
const LANDING_TEAM_COUNT = 3;

export const isVerifiedRole = (role: string | null | undefined) => /ambassador/i.test(role ?? '');

/**
 * The sections a member's card offers: those with at least one entry, in this order: education, experience,
 * achievements, facilities.
 */
export function sectionsOf(member: Pick<TeamMemberDto, 'details'>): SectionKey[] {
  const details = (member.details ?? {}) as Partial<Record<SectionKey, unknown>>;
  return SECTION_ORDER.filter((key) => entriesOf(details[key]).length > 0);
}

/** A section's entries: the non-empty strings of its list. */
export function entriesOf(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

/** One section open at a time: clicking another opens it and closes the first; clicking the open one closes it. */
export const toggleSection = (open: SectionKey | null, clicked: SectionKey): SectionKey | null =>
  open === clicked ? null : clicked;

/** The landing page's cards and whether 'See More Team Members' is offered. */
export function landingTeam<T>(members: readonly T[]): { shown: T[]; hasMore: boolean } {
  return { shown: members.slice(0, LANDING_TEAM_COUNT), hasMore: members.length > LANDING_TEAM_COUNT };
}

const isMember = (x: unknown): x is TeamMemberDto =>
  !!x &&
  typeof x === 'object' &&
  typeof (x as TeamMemberDto).name === 'string' &&
  typeof (x as TeamMemberDto).role === 'string';

/** The team list the landing page passed to /team, or null when the page was opened some other way. */
export function membersFromState(state: unknown): TeamMemberDto[] | null {
  if (!state || typeof state !== 'object') return null;
  const all = (state as { allMembers?: unknown }).allMembers;
  if (!Array.isArray(all) || all.length === 0 || !all.every(isMember)) return null;
  return all;
}

/** A team list as the API answered it: anything that is not a member is dropped. */
export const asMembers = (data: unknown): TeamMemberDto[] =>
  Array.isArray(data) ? data.filter(isMember) : [];

/** A stable key for a member (the API's id, else the name). */
export const memberKey = (m: Pick<TeamMemberDto, '_id' | 'id' | 'name'>) => m._id || m.id || m.name;
