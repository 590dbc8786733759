import { z } from 'zod';
import { EMAIL_ADDRESS, emailField } from './email';
import { DIRECTORY_SEARCH_MAX } from './directory-texts';

/**
 * The public face: NGO and clinic directories, FAQ, team, landing stats and the contact form.
 * Directory, FAQ and team content is data (seed files under data/seed, appended as events on first start).
 */

export type NgoDto = {
  _id: string;
  id: string;
  name: string;
  description: string;
  contact: { phone: string; email: string };
  image: string;
  mission: string;
  services: string[];
};

export type ClinicDto = {
  _id: string;
  id: string;
  name: string;
  location: string;
  image: string;
  veterinarians: { name: string; specialization: string }[];
  services_offered: string[];
  contact: { phone: string; email?: string };
};

export type FaqDto = { _id: string; id: string; question: string; answer: string };

export type TeamMemberDto = {
  _id: string;
  id: string;
  name: string;
  role: string;
  image: string;
  summary: string;
  details: { education: string[]; experience: string[]; achievements: string[]; facilities: string[] };
  contact: { phone: string; email: string; website: string; location: string };
};

/**
 * Live figures of the landing page's stats strip (GET /api/stats/landing, always all four numbers): ads published
 * (except those an admin removed), pets adopted, verified veterinarians, verified community members (admins not
 * counted). All zero before anything happened: the page then shows its placeholders ('0k', '4+').
 */
export type LandingStatsDto = {
  adsPublished: number;
  petsAdopted: number;
  registeredVets: number;
  communityMembers: number;
};

/** `?q=` of GET /api/ngos and /api/clinics: trimmed; empty or absent lists everything. */
export const directorySearchQuery = z.object({
  q: z.string().trim().max(DIRECTORY_SEARCH_MAX, 'Search is too long').optional(),
});

export const CONTACT_MESSAGES = {
  required: 'Please fill in all fields.',
  invalidEmail: 'Please enter a valid email address.',
  sent: 'Thank you! Your message has been sent.',
  failed: 'Your message could not be sent. Please try again.',
} as const;

/**
 * The contact form's e-mail rule. It asks for text, at-sign, text, dot, text; the confirmation is mailed to it and
 * directory entries show it as a mailto: link, so it must be a real address (`EMAIL_ADDRESS`).
 */
export const CONTACT_EMAIL = EMAIL_ADDRESS;

export const contactBody = z.object({
  name: z.string({ error: CONTACT_MESSAGES.required }).trim().min(1, CONTACT_MESSAGES.required).max(200),
  email: emailField(CONTACT_MESSAGES.required, CONTACT_MESSAGES.invalidEmail, 320),
  message: z.string({ error: CONTACT_MESSAGES.required }).trim().min(1, CONTACT_MESSAGES.required).max(5000),
});

/** The answer to POST /api/contact (201). `position` is the log position of the message, for X-Consistent-After. */
export type ContactResponse = { success: true; message: string; position?: string };

// ── The content of the public pages, as an entry is written (seed files today, an admin form later) ──

const text = (max: number) => z.string().trim().min(1).max(max);
const list = (max: number, itemMax = 300) => z.array(text(itemMax)).max(max);
/** Where an entry's picture is: a path on this site (`/media/directory/…`) or an https address. */
const imageRef = z
  .string()
  .trim()
  .max(500)
  .regex(/^(\/(?!\/)|https:\/\/)\S+$/, 'An image is a path on this site (/media/…) or an https address');
const email = z.string().trim().max(320).regex(CONTACT_EMAIL, CONTACT_MESSAGES.invalidEmail);
const phone = z
  .string()
  .trim()
  .regex(
    /^\+?[0-9][0-9 -]{6,30}$/,
    'A phone number has digits, spaces and hyphens, with an optional leading +',
  );

export const ngoInput = z.strictObject({
  name: text(120),
  description: text(2000),
  contact: z.strictObject({ phone, email }),
  image: imageRef,
  mission: text(2000),
  services: list(30),
});

export const clinicInput = z.strictObject({
  name: text(120),
  location: text(300),
  image: imageRef,
  veterinarians: z.array(z.strictObject({ name: text(120), specialization: text(200) })).max(50),
  services_offered: list(30),
  contact: z.strictObject({ phone, email: email.optional() }),
});

export const faqInput = z.strictObject({
  question: text(300),
  answer: text(5000),
});

export const teamMemberInput = z.strictObject({
  name: text(120),
  role: text(120),
  image: imageRef,
  summary: text(2000),
  details: z.strictObject({
    education: list(20),
    experience: list(20),
    achievements: list(20),
    facilities: list(20),
  }),
  contact: z.strictObject({
    phone,
    email,
    website: z.url({ protocol: /^https?$/ }).max(500),
    location: text(200),
  }),
});

export type NgoInput = z.infer<typeof ngoInput>;
export type ClinicInput = z.infer<typeof clinicInput>;
export type FaqInput = z.infer<typeof faqInput>;
export type TeamMemberInput = z.infer<typeof teamMemberInput>;
