import type { Knex } from 'knex';
import { adIdOfStream, userIdOfStream, type AdoptionEvent, type UserEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';

type Handled = AdoptionEvent | UserEvent;

const HANDLES = [
  'UserRegistered',
  'RegistrationRenewed',
  'EmailVerified',
  'GoogleAccountLinked',
  'AdoptionAdPublished',
  'AdoptionAdDeleted',
  'PetAdopted',
  'UserDeleted',
] as const satisfies readonly Handled['type'][];

type Totals = {
  ads_published: number;
  pets_adopted: number;
  registered_vets: number;
  community_members: number;
};
type UserRow = { id: string; is_veterinarian: boolean; is_admin: boolean; verified: boolean };
/** `counted`: listed on the site now (published, not deleted); a deleted account's ads have no row. */
type AdRow = { id: string; owner_id: string; counted: boolean; adopted: boolean };

/** Moves the figures by `delta` (nothing when it is all zeros). */
async function bump(tx: Knex.Transaction, delta: Partial<Totals>) {
  const d: Totals = { ads_published: 0, pets_adopted: 0, registered_vets: 0, community_members: 0, ...delta };
  if (Object.values(d).every((v) => v === 0)) return;
  await tx.raw(
    `INSERT INTO landing_stats AS s (id, ads_published, pets_adopted, registered_vets, community_members)
     VALUES (true, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET
       ads_published = s.ads_published + EXCLUDED.ads_published,
       pets_adopted = s.pets_adopted + EXCLUDED.pets_adopted,
       registered_vets = s.registered_vets + EXCLUDED.registered_vets,
       community_members = s.community_members + EXCLUDED.community_members`,
    [d.ads_published, d.pets_adopted, d.registered_vets, d.community_members],
  );
}

/** Verified accounts that are not administrators count as community members; vets among them as vets too. */
const isMember = (u: UserRow | undefined) => !!u && u.verified && !u.is_admin;
const isVet = (u: UserRow | undefined) => !!u && isMember(u) && u.is_veterinarian;

/** What a user adds to the figures. */
const contribution = (u: UserRow | undefined) => ({
  community_members: isMember(u) ? 1 : 0,
  registered_vets: isVet(u) ? 1 : 0,
});

/** Changes a user's row and moves the figures by the difference it makes. */
async function changeUser(
  tx: Knex.Transaction,
  id: string,
  next: (prev: UserRow | undefined) => UserRow | null,
) {
  const prev = await tx('landing_stats_users').where({ id }).first<UserRow | undefined>();
  const row = next(prev);
  if (!row) return;
  await tx('landing_stats_users').insert(row).onConflict('id').merge();
  const before = contribution(prev);
  const after = contribution(row);
  await bump(tx, {
    community_members: after.community_members - before.community_members,
    registered_vets: after.registered_vets - before.registered_vets,
  });
}

/**
 * The landing page's stats strip (`landing_stats`, one row), from the adoption and user events:
 * - ads published (the strip's 'Rescued': rescued pets listed for adoption): the ads listed on the site now, available
 *   or adopted; an ad deleted (by its owner or an administrator) or whose owner's account was deleted no longer counts;
 * - pets adopted: ads whose pet was adopted (an accepted request), once per ad, kept even if the ad is deleted later;
 * - registered vets and community members: verified accounts (e-mail code, Google, or created verified), not
 *   administrators; vets are those registered as veterinarians.
 * Its lookups (`landing_stats_users`, `landing_stats_ads`) are its own, so it rebuilds alone from the log.
 */
export const landingStatsProjection = defineProjection({
  name: 'landing-stats',
  tables: ['landing_stats', 'landing_stats_users', 'landing_stats_ads'],
  handles: HANDLES,
  // Counts: no personal field.
  readsPersonalData: false,
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data ?? {} } as Handled;
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        // A lapsed sign-up's stream can be registered again (by Google): the new registration replaces it.
        await changeUser(tx, userIdOfStream(recorded.streamId), () => ({
          id: userIdOfStream(recorded.streamId),
          is_veterinarian: d.isVeterinarian === true,
          is_admin: d.isAdmin === true,
          verified: d.via !== 'password',
        }));
        return;
      }
      case 'RegistrationRenewed':
        await changeUser(tx, userIdOfStream(recorded.streamId), (prev) =>
          prev ? { ...prev, is_veterinarian: event.data.isVeterinarian === true } : null,
        );
        return;
      case 'EmailVerified':
      case 'GoogleAccountLinked':
        // Google proves the address as the e-mail code does.
        await changeUser(tx, userIdOfStream(recorded.streamId), (prev) =>
          prev && !prev.verified ? { ...prev, verified: true } : null,
        );
        return;

      case 'UserDeleted': {
        // A deleted member no longer counts, nor do their ads (no longer listed): their rows go, so nothing here names
        // them, and later events of those ads find none. Pets adopted are history without a person in it: the
        // deleted user's adoptions stay counted.
        const id = event.data.userId;
        const gone = await tx('landing_stats_ads').where({ owner_id: id }).delete().returning('counted');
        await bump(tx, { ads_published: -gone.filter((ad: { counted: boolean }) => ad.counted).length });
        const prev = await tx('landing_stats_users').where({ id }).first<UserRow | undefined>();
        if (!prev) return;
        await tx('landing_stats_users').where({ id }).delete();
        const before = contribution(prev);
        await bump(tx, {
          community_members: -before.community_members,
          registered_vets: -before.registered_vets,
        });
        return;
      }
      case 'AdoptionAdPublished': {
        const inserted = await tx('landing_stats_ads')
          .insert({
            id: adIdOfStream(recorded.streamId),
            owner_id: event.data.ownerId,
            counted: true,
            adopted: false,
          })
          .onConflict('id')
          .ignore()
          .returning('id');
        if (inserted.length > 0) await bump(tx, { ads_published: 1 });
        return;
      }
      case 'AdoptionAdDeleted': {
        const removed = await tx('landing_stats_ads')
          .where({ id: adIdOfStream(recorded.streamId), counted: true })
          .update({ counted: false })
          .returning('id');
        if (removed.length > 0) await bump(tx, { ads_published: -1 });
        return;
      }
      case 'PetAdopted': {
        const adopted = await tx('landing_stats_ads')
          .where({ id: adIdOfStream(recorded.streamId), adopted: false })
          .update({ adopted: true })
          .returning('id');
        if (adopted.length > 0) await bump(tx, { pets_adopted: 1 });
        return;
      }
      default:
        return;
    }
  },
  fold: () => {
    const totals: Totals = { ads_published: 0, pets_adopted: 0, registered_vets: 0, community_members: 0 };
    // The row exists once a figure first moved (`bump` inserts it then), even if all are back at 0 since.
    let totalsRow = false;
    const move = (figure: keyof Totals, by: number) => {
      if (by === 0) return;
      totals[figure] += by;
      totalsRow = true;
    };
    /** Moves the figures by the difference a user's change made, as `changeUser` does. */
    const recount = (wasMember: boolean, wasVet: boolean, user: UserRow | undefined) => {
      move('community_members', Number(isMember(user)) - Number(wasMember));
      move('registered_vets', Number(isVet(user)) - Number(wasVet));
    };
    const users = new Map<string, UserRow>();
    const ads = new Map<string, AdRow>();
    /** Each owner's ads, as the live model finds them by `owner_id`. */
    const adsOf = new Map<string, AdRow[]>();
    return {
      apply(recorded) {
        const event = { type: recorded.type, data: recorded.data ?? {} } as Handled;
        switch (event.type) {
          case 'UserRegistered': {
            const d = event.data;
            const id = userIdOfStream(recorded.streamId);
            const prev = users.get(id);
            // A lapsed sign-up's stream can be registered again (by Google): the new registration replaces it.
            const user: UserRow = {
              id,
              is_veterinarian: d.isVeterinarian === true,
              is_admin: d.isAdmin === true,
              verified: d.via !== 'password',
            };
            users.set(id, user);
            recount(isMember(prev), isVet(prev), user);
            return;
          }
          case 'RegistrationRenewed': {
            const user = users.get(userIdOfStream(recorded.streamId));
            if (!user) return;
            const wasMember = isMember(user);
            const wasVet = isVet(user);
            user.is_veterinarian = event.data.isVeterinarian === true;
            recount(wasMember, wasVet, user);
            return;
          }
          case 'EmailVerified':
          case 'GoogleAccountLinked': {
            const user = users.get(userIdOfStream(recorded.streamId));
            if (!user || user.verified) return;
            const wasMember = isMember(user);
            const wasVet = isVet(user);
            user.verified = true;
            recount(wasMember, wasVet, user);
            return;
          }
          case 'UserDeleted': {
            for (const ad of adsOf.get(event.data.userId) ?? []) {
              ads.delete(ad.id);
              if (ad.counted) move('ads_published', -1);
            }
            adsOf.delete(event.data.userId);
            const user = users.get(event.data.userId);
            if (!user) return;
            users.delete(user.id);
            recount(isMember(user), isVet(user), undefined);
            return;
          }
          case 'AdoptionAdPublished': {
            const id = adIdOfStream(recorded.streamId);
            if (ads.has(id)) return; // ON CONFLICT DO NOTHING: published once
            const ad: AdRow = { id, owner_id: event.data.ownerId, counted: true, adopted: false };
            ads.set(id, ad);
            const owned = adsOf.get(ad.owner_id) ?? [];
            owned.push(ad);
            adsOf.set(ad.owner_id, owned);
            move('ads_published', 1);
            return;
          }
          case 'AdoptionAdDeleted': {
            const ad = ads.get(adIdOfStream(recorded.streamId));
            if (!ad?.counted) return;
            ad.counted = false;
            move('ads_published', -1);
            return;
          }
          case 'PetAdopted': {
            const ad = ads.get(adIdOfStream(recorded.streamId));
            if (!ad || ad.adopted) return;
            ad.adopted = true;
            move('pets_adopted', 1);
            return;
          }
          default:
            return;
        }
      },
      rows: () => ({
        landing_stats: totalsRow ? [{ id: true, ...totals }] : [],
        landing_stats_users: users.values(),
        landing_stats_ads: ads.values(),
      }),
    };
  },
});
