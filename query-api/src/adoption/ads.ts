import type {
  AdoptionAdDto,
  AdoptionRequestDto,
  AdoptionHistoryEntryDto,
  PetType,
  RequestStatus,
  AdStatus,
} from '@pawhaven/contracts';
import type { AdRow as AdoptionAdsRow, RequestRow as AdoptionRequestsRow } from '@pawhaven/projections';

/** An `adoption_ads` row as `pg` reads it (the projection declares the columns), joined with its owner. */
export type AdRow = AdoptionAdsRow<Date> & {
  owner_username: string | null;
  owner_is_veterinarian: boolean | null;
  owner_profile_image: string | null;
  my_request_id?: string | null;
  my_request_status?: RequestStatus | null;
};

/** Ads joined with their owner (and, for a signed-in viewer, the viewer's latest request on each). */
export const AD_COLUMNS = `a.*, u.username AS owner_username, u.is_veterinarian AS owner_is_veterinarian,
  u.profile_image AS owner_profile_image`;

export const toAdDto = (r: AdRow): AdoptionAdDto => ({
  _id: r.id,
  id: r.id,
  name: r.name,
  age: r.age,
  ageUnit: r.age_unit,
  petType: r.pet_type,
  breed: r.breed,
  gender: r.gender,
  size: r.size,
  vaccinated: r.vaccinated,
  spayedNeutered: r.spayed_neutered,
  goodWithChildren: r.good_with_children,
  goodWithDogs: r.good_with_dogs,
  goodWithCats: r.good_with_cats,
  description: r.description,
  location: r.location,
  imageUrl: r.image_url,
  status: r.status,
  userId: {
    _id: r.owner_id,
    username: r.owner_username ?? 'Unknown User',
    isVeterinarian: r.owner_is_veterinarian ?? false,
    profileImage: r.owner_profile_image,
  },
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  requestCount: r.request_count,
  myRequest: r.my_request_id ? { _id: r.my_request_id, status: r.my_request_status! } : null,
});

/** An `adoption_requests` row as `pg` reads it (the projection declares the columns), with its requester. */
export type RequestRow = AdoptionRequestsRow<Date> & {
  requester_username: string | null;
  requester_email: string | null;
};

export const REQUEST_COLUMNS = `r.*, ru.username AS requester_username, ru.email AS requester_email`;

export const toRequestDto = (r: RequestRow): AdoptionRequestDto => ({
  _id: r.id,
  id: r.id,
  adId: r.ad_id,
  requester: {
    _id: r.requester_id,
    username: r.requester_username ?? 'Unknown User',
    email: r.requester_email ?? '',
  },
  name: r.name,
  email: r.email,
  phone: r.phone,
  message: r.message,
  petHistoryImage: r.pet_history_image,
  status: r.status,
  reason: r.reason,
  createdAt: r.requested_at.toISOString(),
  respondedAt: r.responded_at?.toISOString() ?? null,
});

export type HistoryRow = RequestRow & {
  pet_name: string;
  pet_image: string;
  pet_type: PetType;
  ad_status: AdStatus;
};

export const toHistoryDto = (r: HistoryRow): AdoptionHistoryEntryDto => ({
  _id: r.id,
  adId: r.ad_id,
  petName: r.pet_name,
  petImage: r.pet_image,
  petType: r.pet_type,
  requestDate: r.requested_at.toISOString(),
  status: r.status,
  responseDate: r.responded_at?.toISOString() ?? null,
  message: r.message,
  reason: r.reason,
  adStatus: r.ad_status,
});

/** Words of a search box as a prefix query: 'germ shep' finds 'German Shepherd'. */
export const prefixQuery = (text: string): string | null => {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words && words.length > 0
    ? words
        .slice(0, 8)
        .map((w) => `${w}:*`)
        .join(' & ')
    : null;
};
