import { ADOPTION_MESSAGES, adoptionStream, type PetDetails } from '@pawhaven/contracts';
import type { NewEvent } from '@pawhaven/platform';
import {
  CITIES,
  AREAS,
  PET_NAMES,
  PET_TYPES,
  BREEDS,
  AD_FOUND,
  AD_TRAITS,
  AD_HOME,
  REQUEST_OPENERS,
  REQUEST_HOMES,
  REQUEST_PROMISES,
} from './texts';
import { ACTIVE, DELETED, AVAILABLE, ADOPTED, AD_DELETED, type User, type Ad, type AdRequest } from './state';
import { SEC, MIN, HOUR, type World } from './world';
import { openChat } from './chat';
import { notify } from './notifications';

/** Adoption ads and requests: publishing, editing and deleting ads, requesting, answering and withdrawing. */

function petDetails(w: World, owner: User): PetDetails {
  const petType = w.rng.pick(PET_TYPES);
  const name = w.rng.pick(PET_NAMES);
  const maybe = <T>(value: () => T): T | null => (w.rng.chance(0.25) ? null : value());
  const young = w.rng.chance(0.4);
  return {
    name,
    age: String(young ? 1 + w.rng.int(11) : 1 + w.rng.int(10)),
    ageUnit: young ? (w.rng.chance(0.8) ? 'months' : 'weeks') : 'yrs',
    petType,
    breed: w.rng.pick(BREEDS[petType]),
    gender: maybe(() => w.rng.pick(['Male', 'Female', 'Unknown'] as const)),
    size: maybe(() => w.rng.pick(['Small', 'Medium', 'Large'] as const)),
    vaccinated: maybe(() => w.rng.chance(0.7)),
    spayedNeutered: maybe(() => w.rng.chance(0.4)),
    goodWithChildren: maybe(() => w.rng.chance(0.8)),
    goodWithDogs: maybe(() => w.rng.chance(0.6)),
    goodWithCats: maybe(() => w.rng.chance(0.6)),
    description: `${name} ${w.rng.pick(AD_FOUND)}. ${w.rng.pick(AD_TRAITS)} ${w.rng.pick(AD_HOME)}`.trim(),
    location: w.rng.chance(0.5)
      ? `${w.rng.pick(AREAS)}, ${owner.city || w.rng.pick(CITIES)}`
      : owner.city || w.rng.pick(CITIES),
    imageUrl: w.image(),
  };
}

function adAppend(w: World, ad: Ad, events: NewEvent[], deps: number[], actor: User): number {
  const idx = w.emit(adoptionStream(ad.id), events, ad.rev, deps, actor);
  ad.rev += events.length;
  return idx;
}

export function publishAd(w: World): void {
  const owner = w.pickUser();
  if (!owner) return;
  const ad: Ad = {
    id: w.rng.uuid(),
    owner,
    details: petDetails(w, owner),
    status: AVAILABLE,
    rev: -1,
    createdIdx: -1,
    requests: [],
  };
  ad.createdIdx = adAppend(
    w,
    ad,
    [
      w.ev(
        'AdoptionAdPublished',
        { adId: ad.id, ownerId: owner.id, details: ad.details, publishedAt: w.iso() },
        { actorId: owner.id },
      ),
    ],
    [owner.readyIdx],
    owner,
  );
  owner.ads.push(ad);
  w.at(w.rng.range(20, 600) * SEC, () => w.availableAds.add(ad));
}

function ownAd(w: World, u: User): Ad | undefined {
  const live = u.ads.filter((a) => a.status !== AD_DELETED);
  return live.length > 0 ? w.rng.pick(live) : undefined;
}

export function updateAd(w: World): void {
  const owner = w.pickUser();
  const ad = owner && ownAd(w, owner);
  if (!owner || !ad) return;
  const d = ad.details;
  const proposed: Partial<PetDetails> = {};
  const n = 1 + w.rng.int(3);
  for (let i = 0; i < n; i++) {
    switch (w.rng.int(6)) {
      case 0:
        proposed.description = `${d.description} ${w.rng.pick(AD_TRAITS)}`.slice(0, 900);
        break;
      case 1:
        proposed.vaccinated = true;
        break;
      case 2:
        proposed.spayedNeutered = true;
        break;
      case 3:
        proposed.imageUrl = w.image();
        break;
      case 4:
        proposed.location = `${w.rng.pick(AREAS)}, ${owner.city || w.rng.pick(CITIES)}`;
        break;
      default:
        proposed.age = String(Number(d.age) + 1);
    }
  }
  // Only what differs is recorded (the decider drops the rest).
  const changes = Object.fromEntries(
    Object.entries(proposed).filter(([k, v]) => d[k as keyof PetDetails] !== v),
  ) as Partial<PetDetails>;
  if (Object.keys(changes).length === 0) return;
  adAppend(
    w,
    ad,
    [w.ev('AdoptionAdUpdated', { changes, updatedAt: w.iso() }, { actorId: owner.id })],
    [owner.readyIdx],
    owner,
  );
  ad.details = { ...d, ...changes };
}

/** DeleteAd: the ad, and each of its open requests closed with it. */
function deleteAd(w: World, ad: Ad, actor: User): void {
  const at = w.iso();
  // One metadata object per append, as handleCommand gives every event of it.
  const metadata = { actorId: actor.id };
  const events = [w.ev('AdoptionAdDeleted', { deletedAt: at, byAdmin: actor !== ad.owner }, metadata)];
  for (const r of ad.requests)
    if (r.status === 'pending' && !r.deleted) {
      r.status = 'closed';
      events.push(
        w.ev(
          'AdoptionRequestClosed',
          { requestId: r.id, reason: ADOPTION_MESSAGES.adDeleted, closedAt: at },
          metadata,
        ),
      );
    }
  ad.status = AD_DELETED;
  adAppend(w, ad, events, [actor.readyIdx, ad.createdIdx], actor);
}

export function deleteOwnAd(w: World): void {
  const owner = w.pickUser();
  const ad = owner && ownAd(w, owner);
  if (owner && ad) deleteAd(w, ad, owner);
}

export function adminDeleteAd(w: World): void {
  const admin = w.pickAdmin();
  const ad = w.availableAds.pick(w.rng);
  if (admin && ad) deleteAd(w, ad, admin);
}

export function requestAdoption(w: World): void {
  const ad = w.availableAds.pick(w.rng, 600, 0.7);
  if (!ad) return;
  let requester: User | undefined;
  for (let attempt = 0; attempt < 4 && !requester; attempt++) {
    const u = w.pickUser();
    if (!u || u === ad.owner) continue;
    if (ad.requests.some((r) => r.requester === u && r.status === 'pending' && !r.deleted)) continue;
    requester = u;
  }
  if (!requester) return;
  const u = requester;
  const pet = ad.details.name;
  const request: AdRequest = {
    id: w.rng.uuid(),
    ad,
    requester: u,
    status: 'pending',
    deleted: false,
    idx: -1,
  };
  const message = [
    w.fill(w.rng.pick(REQUEST_OPENERS), pet),
    w.fill(w.rng.pick(REQUEST_HOMES), pet),
    w.rng.pick(REQUEST_PROMISES),
  ].join(' ');
  const event = w.ev(
    'AdoptionRequested',
    {
      requestId: request.id,
      requesterId: u.id,
      name: u.fullName,
      email: u.email,
      phone: u.phone || w.phone(),
      message,
      petHistoryImage: w.rng.chance(0.25) ? w.image() : null,
      requestedAt: w.iso(),
      ownerId: ad.owner.id,
    },
    { actorId: u.id },
  );
  request.idx = adAppend(w, ad, [event], [u.readyIdx, ad.createdIdx], u);
  ad.requests.push(request);
  w.recentRequests.push(request);
  notify(w, ad.owner, { eventId: event.eventId!, idx: request.idx, kind: 'request', actor: u, request });
  // The owner answers some requests (most answers come within a day or two); some requesters withdraw.
  if (w.rng.chance(0.6)) w.at(w.rng.exp(20 * HOUR) + 10 * MIN, () => answer(w, request));
  else if (w.rng.chance(0.12)) w.at(w.rng.exp(30 * HOUR) + 30 * MIN, () => withdraw(w, request));
}

function visible(w: World, r: AdRequest): boolean {
  return (
    !r.deleted && r.status === 'pending' && r.requester.status !== DELETED && r.ad.owner.status !== DELETED
  );
}

function answer(w: World, r: AdRequest): void {
  const ad = r.ad;
  if (!visible(w, r) || ad.status !== AVAILABLE || ad.owner.status !== ACTIVE) return;
  const owner = ad.owner;
  const at = w.iso();
  const metadata = { actorId: owner.id };
  if (w.rng.chance(0.5)) {
    const accepted = w.ev('AdoptionRequestAccepted', { requestId: r.id, acceptedAt: at }, metadata);
    const events = [
      accepted,
      w.ev('PetAdopted', { requestId: r.id, adopterId: r.requester.id, adoptedAt: at }, metadata),
    ];
    const declined: [AdRequest, NewEvent][] = [];
    for (const other of ad.requests)
      if (other !== r && other.status === 'pending' && !other.deleted) {
        other.status = 'rejected';
        const e = w.ev(
          'AdoptionRequestRejected',
          { requestId: other.id, reason: ADOPTION_MESSAGES.anotherAccepted, rejectedAt: at },
          metadata,
        );
        events.push(e);
        declined.push([other, e]);
      }
    r.status = 'accepted';
    ad.status = ADOPTED;
    const idx = adAppend(w, ad, events, [owner.readyIdx], owner);
    notify(w, r.requester, {
      eventId: accepted.eventId!,
      idx,
      kind: 'decision',
      actor: owner,
      request: r,
    });
    for (const [other, e] of declined)
      notify(w, other.requester, {
        eventId: e.eventId!,
        idx,
        kind: 'decision',
        actor: owner,
        request: other,
      });
    // The new family and the owner arrange the hand-over.
    if (w.rng.chance(0.3)) w.at(w.rng.range(1, 60) * MIN, () => openChat(w, r.requester, owner, ad));
    return;
  }
  r.status = 'rejected';
  const e = w.ev(
    'AdoptionRequestRejected',
    { requestId: r.id, reason: ADOPTION_MESSAGES.declinedByOwner, rejectedAt: at },
    metadata,
  );
  const idx = adAppend(w, ad, [e], [owner.readyIdx], owner);
  notify(w, r.requester, { eventId: e.eventId!, idx, kind: 'decision', actor: owner, request: r });
}

function withdraw(w: World, r: AdRequest): void {
  if (!visible(w, r) || r.ad.status === AD_DELETED || r.requester.status !== ACTIVE) return;
  r.status = 'withdrawn';
  const u = r.requester;
  adAppend(
    w,
    r.ad,
    [w.ev('AdoptionRequestWithdrawn', { requestId: r.id, withdrawnAt: w.iso() }, { actorId: u.id })],
    [u.readyIdx],
    u,
  );
}

export function adminDeleteRequest(w: World): void {
  const admin = w.pickAdmin();
  const r = w.recentRequests.pick(w.rng);
  if (!admin || !r || r.deleted || r.requester.status === DELETED || r.ad.owner.status === DELETED) return;
  r.deleted = true;
  adAppend(
    w,
    r.ad,
    [
      w.ev(
        'AdoptionRequestDeleted',
        { requestId: r.id, requesterId: r.requester.id, deletedBy: admin.id, deletedAt: w.iso() },
        { actorId: admin.id },
      ),
    ],
    [admin.readyIdx],
    admin,
  );
}
