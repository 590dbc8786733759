import {
  ADOPTION_LIMITS,
  ADOPTION_MESSAGES,
  DEFAULT_BREED,
  type AdoptionAdDto,
  type RequestStatus,
} from '@pawhaven/contracts';
import { ApiError } from '../shared/api';

export { userIdOf } from '../shared/user-id';

/** The ad's owner id: the listing populates `userId`; command answers send the plain id. */
export const ownerIdOf = (ad: { userId: AdoptionAdDto['userId'] | string }) =>
  typeof ad.userId === 'string' ? ad.userId : ad.userId?._id;

/** The one age formatter of the site and the admin lives in contracts. */
export { ageText } from '@pawhaven/contracts';

export const breedText = (ad: Pick<AdoptionAdDto, 'breed'>) => ad.breed?.trim() || DEFAULT_BREED;
export const locationText = (ad: Pick<AdoptionAdDto, 'location'>) =>
  ad.location?.trim() || ADOPTION_MESSAGES.locationMissing;

/** 'Read more...' is offered above this many characters; the card shows 3 lines. */
export const isLongDescription = (text: string) => text.length > ADOPTION_LIMITS.cardDescriptionChars;

const FLAG_LABELS = {
  vaccinated: ['Vaccinated', 'Not vaccinated'],
  spayedNeutered: ['Spayed/neutered', 'Not spayed/neutered'],
  goodWithChildren: ['Good with children', 'Not good with children'],
  goodWithDogs: ['Good with dogs', 'Not good with dogs'],
  goodWithCats: ['Good with cats', 'Not good with cats'],
} as const;
export type PetFlag = keyof typeof FLAG_LABELS;
export const PET_FLAGS = Object.keys(FLAG_LABELS) as PetFlag[];
export const flagLabel = (flag: PetFlag) => FLAG_LABELS[flag][0];

/** The optional attributes that are present, as chip labels (gender, size, then the yes/no facts). */
export function attributeLabels(ad: Pick<AdoptionAdDto, 'gender' | 'size' | PetFlag>): string[] {
  const out: string[] = [];
  if (ad.gender) out.push(ad.gender);
  if (ad.size) out.push(ad.size);
  for (const flag of PET_FLAGS) {
    const v = ad[flag];
    if (v === true) out.push(FLAG_LABELS[flag][0]);
    else if (v === false) out.push(FLAG_LABELS[flag][1]);
  }
  return out;
}

/** History dates: en-US, short. */
export function shortDate(value: string | null | undefined) {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime())
    ? null
    : d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
  closed: 'Closed',
};
export const REQUEST_STATUS_COLORS = {
  pending: 'warning',
  accepted: 'success',
  rejected: 'error',
  withdrawn: 'default',
  closed: 'default',
} as const satisfies Record<RequestStatus, string>;

/** The server's own text when it answered, else the fixed fallback text. */
export function failureText(err: unknown, fallback: string) {
  if (err instanceof ApiError) return err.serverMessage ?? fallback;
  return fallback;
}

/** Field-level messages the server sent with a validation error (`fields`), if any. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || !err.body || typeof err.body !== 'object') return {};
  const fields = (err.body as { fields?: unknown }).fields;
  if (!fields || typeof fields !== 'object') return {};
  return Object.fromEntries(
    Object.entries(fields as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === 'string',
    ),
  );
}

/**
 * Image checks of the browser, the server's own: an image type and under `maxBytes` (`tooLarge` otherwise; limits
 * and texts of contracts).
 */
export function imageProblem(file: File, maxBytes: number, tooLarge: string): string | null {
  if (!file.type.startsWith('image/')) return ADOPTION_MESSAGES.imageInvalid;
  if (file.size >= maxBytes) return tooLarge;
  return null;
}
