import {
  DIRECTORY_EVENT_TYPES,
  isLowerCaseUuid,
  type ClinicListedData,
  type DirectoryEvent,
  type FaqPublishedData,
  type NgoListedData,
  type TeamMemberAddedData,
} from '@pawhaven/contracts';
import { defineReadModel, type RecordedEvent, type Row, type RowTable } from '@pawhaven/platform';

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const order = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? value : 0;
/** The event's own time when it is one, else the time it was recorded: both replay identically. */
const timeOf = (value: unknown, recorded: RecordedEvent): string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : recorded.createdAt.toISOString();

/**
 * The row each event names, jsonb columns as plain values. Null for an id that is not a UUID.
 */
function ngoRow(d: Partial<NgoListedData>, recorded: RecordedEvent) {
  if (!isLowerCaseUuid(str(d.ngoId))) return null;
  return {
    id: str(d.ngoId),
    sort_order: order(d.order),
    name: str(d.name),
    description: str(d.description),
    phone: str(d.contact?.phone),
    email: str(d.contact?.email),
    image: str(d.image),
    mission: str(d.mission),
    services: strings(d.services),
    listed_at: timeOf(d.listedAt, recorded),
  };
}

function clinicRow(d: Partial<ClinicListedData>, recorded: RecordedEvent) {
  if (!isLowerCaseUuid(str(d.clinicId))) return null;
  return {
    id: str(d.clinicId),
    sort_order: order(d.order),
    name: str(d.name),
    location: str(d.location),
    image: str(d.image),
    veterinarians: Array.isArray(d.veterinarians)
      ? d.veterinarians.map((v) => ({ name: str(v?.name), specialization: str(v?.specialization) }))
      : [],
    services_offered: strings(d.servicesOffered),
    phone: str(d.contact?.phone),
    email: str(d.contact?.email) || null,
    listed_at: timeOf(d.listedAt, recorded),
  };
}

function faqRow(d: Partial<FaqPublishedData>, recorded: RecordedEvent) {
  if (!isLowerCaseUuid(str(d.faqId))) return null;
  return {
    id: str(d.faqId),
    sort_order: order(d.order),
    question: str(d.question),
    answer: str(d.answer),
    published_at: timeOf(d.publishedAt, recorded),
  };
}

function teamMemberRow(d: Partial<TeamMemberAddedData>, recorded: RecordedEvent) {
  if (!isLowerCaseUuid(str(d.memberId))) return null;
  const details = d.details;
  const contact = d.contact;
  return {
    id: str(d.memberId),
    sort_order: order(d.order),
    name: str(d.name),
    role: str(d.role),
    image: str(d.image),
    summary: str(d.summary),
    details: {
      education: strings(details?.education),
      experience: strings(details?.experience),
      achievements: strings(details?.achievements),
      facilities: strings(details?.facilities),
    },
    contact: {
      phone: str(contact?.phone),
      email: str(contact?.email),
      website: str(contact?.website),
      location: str(contact?.location),
    },
    added_at: timeOf(d.addedAt, recorded),
  };
}

/** The directory's rows (`ngos`, `clinics`, `faq_items`, `team_members`), every column included; readers import them. */
export type NgoRow = NonNullable<ReturnType<typeof ngoRow>>;
export type ClinicRow = NonNullable<ReturnType<typeof clinicRow>>;
export type FaqRow = NonNullable<ReturnType<typeof faqRow>>;
export type TeamMemberRow = NonNullable<ReturnType<typeof teamMemberRow>>;

/**
 * The NGO and clinic directories, the FAQ and the team (`ngos`, `clinics`, `faq_items`, `team_members`): one row
 * per entry, from the events the seed files were appended as. Everything comes from the events' data, so a rebuild
 * reproduces the same rows. An event whose id is not a UUID names nothing and is skipped.
 */
export const directoryProjection = defineReadModel<{
  ngos: NgoRow;
  clinics: ClinicRow;
  faq_items: FaqRow;
  team_members: TeamMemberRow;
}>({
  name: 'directory',
  // What an event does here depends only on its own stream's earlier events (may consume a partitioned bus).
  order: 'stream',
  tables: {
    ngos: { key: ['id'] },
    clinics: { key: ['id'] },
    faq_items: { key: ['id'] },
    team_members: { key: ['id'] },
  },
  handles: DIRECTORY_EVENT_TYPES,
  // Public directory content: no personal field.
  readsPersonalData: false,
  evolve(rows, recorded) {
    const event = { type: recorded.type, data: recorded.data ?? {} } as DirectoryEvent;
    // Listed again: the new row replaces the old one whole.
    const put = <R extends Row>(table: RowTable<R>, row: R | null) => {
      if (row) table.put(row);
    };
    switch (event.type) {
      case 'NgoListed':
        return put(rows.ngos, ngoRow(event.data, recorded));
      case 'ClinicListed':
        return put(rows.clinics, clinicRow(event.data, recorded));
      case 'FaqPublished':
        return put(rows.faq_items, faqRow(event.data, recorded));
      case 'TeamMemberAdded':
        return put(rows.team_members, teamMemberRow(event.data, recorded));
      default:
        return;
    }
  },
});
