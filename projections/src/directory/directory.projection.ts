import {
  DIRECTORY_EVENT_TYPES,
  type ClinicListedData,
  type DirectoryEvent,
  type FaqPublishedData,
  type NgoListedData,
  type TeamMemberAddedData,
} from '@pawhaven/contracts';
import { defineProjection, type RecordedEvent } from '@pawhaven/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const order = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? value : 0;
/** The event's own time when it is one, else the time it was recorded: both replay identically. */
const timeOf = (value: unknown, recorded: RecordedEvent): string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : recorded.createdAt.toISOString();
const json = (value: unknown) => JSON.stringify(value);

/**
 * The NGO and clinic directories, the FAQ and the team (`ngos`, `clinics`, `faq_items`, `team_members`): one row
 * per entry, from the events the seed files were appended as. Everything comes from the events' data, so a rebuild
 * reproduces the same rows. An event whose id is not a UUID names nothing and is skipped.
 */
export const directoryProjection = defineProjection({
  name: 'directory',
  tables: ['ngos', 'clinics', 'faq_items', 'team_members'],
  handles: DIRECTORY_EVENT_TYPES,
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data ?? {} } as DirectoryEvent;
    switch (event.type) {
      case 'NgoListed': {
        const d: Partial<NgoListedData> = event.data;
        if (!UUID.test(str(d.ngoId))) return;
        await tx('ngos')
          .insert({
            id: d.ngoId,
            sort_order: order(d.order),
            name: str(d.name),
            description: str(d.description),
            phone: str(d.contact?.phone),
            email: str(d.contact?.email),
            image: str(d.image),
            mission: str(d.mission),
            services: json(strings(d.services)),
            listed_at: timeOf(d.listedAt, recorded),
          })
          .onConflict('id')
          .merge();
        return;
      }
      case 'ClinicListed': {
        const d: Partial<ClinicListedData> = event.data;
        if (!UUID.test(str(d.clinicId))) return;
        const vets = Array.isArray(d.veterinarians)
          ? d.veterinarians.map((v) => ({ name: str(v?.name), specialization: str(v?.specialization) }))
          : [];
        await tx('clinics')
          .insert({
            id: d.clinicId,
            sort_order: order(d.order),
            name: str(d.name),
            location: str(d.location),
            image: str(d.image),
            veterinarians: json(vets),
            services_offered: json(strings(d.servicesOffered)),
            phone: str(d.contact?.phone),
            email: str(d.contact?.email) || null,
            listed_at: timeOf(d.listedAt, recorded),
          })
          .onConflict('id')
          .merge();
        return;
      }
      case 'FaqPublished': {
        const d: Partial<FaqPublishedData> = event.data;
        if (!UUID.test(str(d.faqId))) return;
        await tx('faq_items')
          .insert({
            id: d.faqId,
            sort_order: order(d.order),
            question: str(d.question),
            answer: str(d.answer),
            published_at: timeOf(d.publishedAt, recorded),
          })
          .onConflict('id')
          .merge();
        return;
      }
      case 'TeamMemberAdded': {
        const d: Partial<TeamMemberAddedData> = event.data;
        if (!UUID.test(str(d.memberId))) return;
        const details = d.details;
        const contact = d.contact;
        await tx('team_members')
          .insert({
            id: d.memberId,
            sort_order: order(d.order),
            name: str(d.name),
            role: str(d.role),
            image: str(d.image),
            summary: str(d.summary),
            details: json({
              education: strings(details?.education),
              experience: strings(details?.experience),
              achievements: strings(details?.achievements),
              facilities: strings(details?.facilities),
            }),
            contact: json({
              phone: str(contact?.phone),
              email: str(contact?.email),
              website: str(contact?.website),
              location: str(contact?.location),
            }),
            added_at: timeOf(d.addedAt, recorded),
          })
          .onConflict('id')
          .merge();
        return;
      }
      default:
        return;
    }
  },
});
