import { z } from 'zod';
import { emailField } from './email';

export const PET_TYPES = ['Dog', 'Cat', 'Bird', 'Rabbit', 'Hamster', 'Other'] as const;
export type PetType = (typeof PET_TYPES)[number];
export const AGE_UNITS = ['yrs', 'months', 'weeks'] as const;
export const GENDERS = ['Male', 'Female', 'Unknown'] as const;
export const SIZES = ['Small', 'Medium', 'Large'] as const;
/** Listing filters: other = anything not dog or cat (case-insensitive). */
export const PET_FILTERS = ['all', 'dog', 'cat', 'other'] as const;

/** An ad's picture is under 2 MB, a request's proof picture under 5 MB: the limits and their texts come from here. */
const AD_IMAGE_MB = 2;
const PROOF_IMAGE_MB = 5;

export const ADOPTION_LIMITS = {
  imageMaxBytes: AD_IMAGE_MB * 1024 * 1024,
  proofImageMaxBytes: PROOF_IMAGE_MB * 1024 * 1024,
  nameMaxLength: 60,
  ageMaxLength: 20,
  locationMaxLength: 100,
  breedMaxLength: 60,
  descriptionMaxLength: 2000,
  messageMaxLength: 1000,
  pageSizeDefault: 12,
  pageSizeMax: 50,
  cardDescriptionChars: 100,
  skeletonCards: 6,
  successMessageMs: 5000,
} as const;

export const ADOPTION_MESSAGES = {
  allFieldsRequired: 'All fields are required',
  invalidEmail: 'Please enter a valid email address',
  invalidPhone: 'Please enter a valid phone number',
  mustBeLoggedInToRequest: 'You must be logged in to request adoption',
  mustBeLoggedInToCreate: 'You must be logged in to create an adoption post.',
  tokenMissing: 'Authentication token is missing. Please log in again.',
  visitorRequest: 'You need to be logged in to request adoption.',
  created: 'Adoption post created successfully!',
  empty: 'No adoption posts available.',
  myEmpty: 'No adoption posts yet. Create your first adoption post!',
  historyEmpty: 'No Adoption History',
  pendingReview: 'Adoption request pending review',
  adopted: 'This pet has found a forever home!',
  locationMissing: 'Location not specified',
  petTypeRequired: 'Pet type is required',
  petTypeUnknown: `Pet type must be one of ${PET_TYPES.join(', ')}`,
  imageRequired: 'Please select an image of the pet',
  imageInvalid: 'Please select a valid image file',
  imageTooLarge: `Image size should be less than ${AD_IMAGE_MB}MB`,
  imageHint: `PNG, JPG or JPEG (max ${AD_IMAGE_MB}MB)`,
  proofImageTooLarge: `Image size should be less than ${PROOF_IMAGE_MB}MB`,
  proofImageHint: `A photo of your home, your pets or their vet records helps the owner decide. An image under ${PROOF_IMAGE_MB}MB.`,
  notAvailable: 'This pet is no longer available for adoption',
  ownAd: 'You cannot request to adopt your own pet',
  alreadyRequested: 'You already have a pending request for this pet',
  notOwner: 'Only the owner of this ad can do that',
  notRequester: 'Only the person who sent this request can withdraw it',
  requestNotPending: 'This request has already been answered',
  adNotFound: 'Adoption post not found',
  requestNotFound: 'Adoption request not found',
  anotherAccepted: 'Another applicant was accepted',
  declinedByOwner: 'Declined by the owner',
  adDeleted: 'The adoption ad was removed',
  accepted: 'Request accepted successfully',
  rejected: 'Request rejected successfully',
  withdrawn: 'Request withdrawn',
  deleted: 'Adoption post deleted',
} as const;

export const DEFAULT_BREED = 'Mixed';
export const DEFAULT_AGE_UNIT = 'yrs';

const SINGULAR_AGE_UNITS: Record<string, string> = { yrs: 'yr', months: 'month', weeks: 'week' };

/**
 * A pet's age as the site and the admin show it: '0 yrs', '1 yr', '2 yrs', '1 month', '3 weeks' (the unit 'yrs' when
 * none is given, singular for exactly one); 'Age N/A' when no age is known.
 */
export function ageText(ad: { age?: string | null; ageUnit?: string | null }): string {
  const age = ad.age?.trim();
  if (!age) return 'Age N/A';
  const unit = ad.ageUnit?.trim() || DEFAULT_AGE_UNIT;
  return `${age} ${Number(age) === 1 ? (SINGULAR_AGE_UNITS[unit] ?? unit) : unit}`;
}

const required = (max: number, label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** Multipart forms send booleans as text. */
const flag = z.preprocess(
  (v) =>
    v === 'true' || v === true || v === 'on'
      ? true
      : v === 'false' || v === false
        ? false
        : v === ''
          ? undefined
          : v,
  z.boolean().optional(),
);
const optionalText = (max: number) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(max).optional());

/** The optional attributes users of Petfinder-like sites expect; shown when present. */
export const petAttributes = z.object({
  breed: optionalText(ADOPTION_LIMITS.breedMaxLength),
  ageUnit: z.preprocess((v) => (v === '' ? undefined : v), z.enum(AGE_UNITS).optional()),
  gender: z.preprocess((v) => (v === '' ? undefined : v), z.enum(GENDERS).optional()),
  size: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SIZES).optional()),
  vaccinated: flag,
  spayedNeutered: flag,
  goodWithChildren: flag,
  goodWithDogs: flag,
  goodWithCats: flag,
});

export const adoptionAdBody = z
  .object({
    name: required(ADOPTION_LIMITS.nameMaxLength, 'Name'),
    age: required(ADOPTION_LIMITS.ageMaxLength, 'Age'),
    location: required(ADOPTION_LIMITS.locationMaxLength, 'Location'),
    petType: z.enum(PET_TYPES, {
      // No choice made (absent, or blank as a form sends it) is a missing field; anything else is not a pet type.
      error: (issue) =>
        issue.input == null || (typeof issue.input === 'string' && issue.input.trim() === '')
          ? ADOPTION_MESSAGES.petTypeRequired
          : ADOPTION_MESSAGES.petTypeUnknown,
    }),
    description: required(ADOPTION_LIMITS.descriptionMaxLength, 'Description'),
  })
  .extend(petAttributes.shape);
export type AdoptionAdInput = z.infer<typeof adoptionAdBody>;

/** Edits send only what changes; the image stays unless a new one is uploaded. */
export const adoptionAdUpdateBody = adoptionAdBody.partial();

export const adoptionRequestBody = z.object({
  name: z
    .string({ error: ADOPTION_MESSAGES.allFieldsRequired })
    .trim()
    .min(1, ADOPTION_MESSAGES.allFieldsRequired)
    .max(80),
  // Shown to the ad's owner as a mailto: link: a real address, nothing a mail client could read as more.
  email: emailField(ADOPTION_MESSAGES.allFieldsRequired, ADOPTION_MESSAGES.invalidEmail),
  phone: z
    .string({ error: ADOPTION_MESSAGES.allFieldsRequired })
    .trim()
    .min(1, ADOPTION_MESSAGES.allFieldsRequired)
    .max(25)
    .regex(/^\+?[0-9\s-]{10,}$/, ADOPTION_MESSAGES.invalidPhone),
  message: z
    .string({ error: ADOPTION_MESSAGES.allFieldsRequired })
    .trim()
    .min(1, ADOPTION_MESSAGES.allFieldsRequired)
    .max(
      ADOPTION_LIMITS.messageMaxLength,
      `Message must be at most ${ADOPTION_LIMITS.messageMaxLength} characters`,
    ),
});
export type AdoptionRequestInput = z.infer<typeof adoptionRequestBody>;

export const requestDecisionBody = z.object({
  status: z.enum(['accepted', 'rejected'], { error: "status must be 'accepted' or 'rejected'" }),
});

export const adoptionListQuery = z.object({
  filter: z.enum(PET_FILTERS).default('all'),
  city: z.string().trim().max(100).optional(),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(ADOPTION_LIMITS.pageSizeMax)
    .default(ADOPTION_LIMITS.pageSizeDefault),
});

export type AdStatus = 'available' | 'adopted' | 'deleted';
export type RequestStatus = 'pending' | 'accepted' | 'rejected' | 'withdrawn' | 'closed';

export type AdoptionRequestDto = {
  _id: string;
  id: string;
  adId: string;
  requester: { _id: string; username: string; email: string };
  name: string;
  email: string;
  phone: string;
  message: string;
  petHistoryImage: string | null;
  status: RequestStatus;
  reason: string | null;
  createdAt: string;
  respondedAt: string | null;
};

export type AdoptionAdDto = {
  _id: string;
  id: string;
  name: string;
  age: string;
  ageUnit: string;
  petType: PetType;
  breed: string;
  gender: string | null;
  size: string | null;
  vaccinated: boolean | null;
  spayedNeutered: boolean | null;
  goodWithChildren: boolean | null;
  goodWithDogs: boolean | null;
  goodWithCats: boolean | null;
  description: string;
  location: string;
  imageUrl: string;
  status: AdStatus;
  userId: { _id: string; username: string; isVeterinarian: boolean; profileImage: string | null };
  createdAt: string;
  updatedAt: string;
  requestCount: number;
  /** The signed-in viewer's own open or answered request on this ad, if any. */
  myRequest: { _id: string; status: RequestStatus } | null;
  requests?: AdoptionRequestDto[];
};

export type AdoptionHistoryEntryDto = {
  _id: string;
  adId: string;
  petName: string;
  petImage: string;
  petType: PetType;
  requestDate: string;
  status: RequestStatus;
  responseDate: string | null;
  message: string;
  reason: string | null;
  adStatus: AdStatus;
};

export type AuditEntryDto = {
  position: string;
  eventType: string;
  requestId: string | null;
  subject: 'ad' | 'request';
  fromStatus: string | null;
  toStatus: string | null;
  actor: { _id: string; username: string | null } | null;
  at: string;
  details: Record<string, unknown>;
};
