/**
 * Events of the public pages' content, version 1: the NGO and clinic directories, the FAQ and the team. The
 * content is data, not code: on every start the seed files (data/seed/*.json) are appended as these events, each
 * entry once, in a stream of its own (`ngo-{id}`, `clinic-{id}`, `faq-{id}`, `team-member-{id}`) whose id is stable
 * (derived from the entry's key in its file), so a restart or two processes starting at once never double an entry.
 * The read models are built from these events only, so a later admin capability edits them with events of its own.
 *
 * `order` places the entry in its list (its index in the seed file); lists are shown in that order.
 */

export type NgoListedData = {
  ngoId: string;
  name: string;
  description: string;
  contact: { phone: string; email: string };
  image: string;
  mission: string;
  services: string[];
  order: number;
  listedAt: string;
};

export type ClinicListedData = {
  clinicId: string;
  name: string;
  location: string;
  image: string;
  veterinarians: { name: string; specialization: string }[];
  servicesOffered: string[];
  /** A clinic's e-mail is optional. */
  contact: { phone: string; email: string | null };
  order: number;
  listedAt: string;
};

export type FaqPublishedData = {
  faqId: string;
  question: string;
  answer: string;
  order: number;
  publishedAt: string;
};

export type TeamMemberAddedData = {
  memberId: string;
  name: string;
  /** An ambassador's role contains 'Ambassador' (a verified badge); others are collaborators. */
  role: string;
  image: string;
  summary: string;
  details: { education: string[]; experience: string[]; achievements: string[]; facilities: string[] };
  contact: { phone: string; email: string; website: string; location: string };
  order: number;
  addedAt: string;
};

export type DirectoryEvent =
  | { type: 'NgoListed'; data: NgoListedData }
  | { type: 'ClinicListed'; data: ClinicListedData }
  | { type: 'FaqPublished'; data: FaqPublishedData }
  | { type: 'TeamMemberAdded'; data: TeamMemberAddedData };

export type DirectoryEventType = DirectoryEvent['type'];

export const DIRECTORY_EVENT_TYPES = [
  'NgoListed',
  'ClinicListed',
  'FaqPublished',
  'TeamMemberAdded',
] as const satisfies readonly DirectoryEventType[];

export const ngoStream = (ngoId: string) => `ngo-${ngoId}`;
export const clinicStream = (clinicId: string) => `clinic-${clinicId}`;
export const faqStream = (faqId: string) => `faq-${faqId}`;
export const teamMemberStream = (memberId: string) => `team-member-${memberId}`;

/**
 * A message sent with the contact form (stream `contact-message-{messageId}`), version 1. Kept in the
 * `contact_messages` read model for the team's inbox; the sender is mailed a confirmation.
 */
export type ContactEvent = {
  type: 'ContactMessageReceived';
  data: {
    messageId: string;
    name: string;
    email: string;
    message: string;
    /** The signed-in user who sent it, if any (the form is open to visitors). */
    userId: string | null;
    receivedAt: string;
  };
};

export type ContactEventType = ContactEvent['type'];

export const CONTACT_EVENT_TYPES = ['ContactMessageReceived'] as const satisfies readonly ContactEventType[];

export const contactMessageStream = (messageId: string) => `contact-message-${messageId}`;
