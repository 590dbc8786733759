import { contactBody, directorySearchQuery } from '@pawhaven/contracts';
import type { Operation } from '../system/openapi';

/** The public pages' calls, for the OpenAPI document. Every one is open to visitors. */
export const publicPagesOperations: Record<string, Operation> = {
  // ── Public pages (query side) ──
  'GET /api/faqRoutes': {
    summary: "The FAQ (the spec's path): a list of { _id, id, question, answer }, in order",
  },
  'GET /api/faq': { summary: 'The FAQ: the same list as /api/faqRoutes' },
  'GET /api/ngos': {
    summary:
      'The NGO directory: a list of { _id, id, name, description, contact { phone, email }, image, mission, services }; `q` finds a case-insensitive substring of the name or the description',
    query: directorySearchQuery,
  },
  'GET /api/clinics': {
    summary:
      'The clinic directory: a list of { _id, id, name, location, image, veterinarians [{ name, specialization }], services_offered, contact { phone, email? } }; `q` finds a case-insensitive substring of the name or the location',
    query: directorySearchQuery,
  },
  'GET /api/team': {
    summary:
      'The ambassadors and collaborators, in order: a list of { _id, id, name, role, image, summary, details { education, experience, achievements, facilities }, contact { phone, email, website, location } }',
  },
  'GET /api/stats/landing': {
    summary:
      "The landing page's live figures: { adsPublished, petsAdopted, registeredVets, communityMembers }",
  },

  // ── Contact (command side) ──
  'POST /api/contact': {
    summary:
      'Send a message with the contact form (visitors too): answers { success, message, position } and mails the sender a confirmation; rate-limited per client address (RATE_LIMIT_CONTACT)',
    body: contactBody,
    auth: 'optional',
    creates: true,
    responses: { 201: 'Message received' },
  },
};
