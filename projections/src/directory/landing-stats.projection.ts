import { adIdOfStream, userIdOfStream, type AdoptionEvent, type UserEvent } from '@pawhaven/contracts';
import { defineReadModel } from '@pawhaven/platform';

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

/**
 * The figures of the `landing_stats` row; readers import them. `Count` is how a count reads: a number in the model's
 * `evolve`, text from the `pg` driver (the columns are bigints).
 */
export type Totals<Count = number> = {
  ads_published: Count;
  pets_adopted: Count;
  registered_vets: Count;
  community_members: Count;
};
type UserRow = { id: string; is_veterinarian: boolean; is_admin: boolean; verified: boolean };
/** `counted`: listed on the site now (published, not deleted); a deleted account's ads have no row. */
type AdRow = { id: string; owner_id: string; counted: boolean; adopted: boolean };

/** Verified accounts that are not administrators count as community members; vets among them as vets too. */
const isMember = (u: UserRow | undefined) => !!u && u.verified && !u.is_admin;
const isVet = (u: UserRow | undefined) => !!u && isMember(u) && u.is_veterinarian;

/** What a user adds to the figures. */
const contribution = (u: UserRow | undefined) => ({
  community_members: isMember(u) ? 1 : 0,
  registered_vets: isVet(u) ? 1 : 0,
});

/**
 * The landing page's stats strip (`landing_stats`, one row), from the adoption and user events:
 * - ads published (the strip's 'Rescued': rescued pets listed for adoption): the ads listed on the site now, available
 *   or adopted; an ad deleted (by its owner or an administrator) or whose owner's account was deleted no longer counts;
 * - pets adopted: ads whose pet was adopted (an accepted request), once per ad, kept even if the ad is deleted later;
 * - registered vets and community members: verified accounts (e-mail code, Google, or created verified), not
 *   administrators; vets are those registered as veterinarians.
 * Its lookups (`landing_stats_users`, `landing_stats_ads`) are its own, so it rebuilds alone from the log.
 */
type TotalsRow = Totals & { id: true };

export const landingStatsProjection = defineReadModel<{
  landing_stats: TotalsRow;
  landing_stats_users: UserRow;
  landing_stats_ads: AdRow;
}>({
  name: 'landing-stats',
  tables: {
    landing_stats: { key: ['id'] },
    landing_stats_users: { key: ['id'] },
    landing_stats_ads: { key: ['id'], lookups: ['owner_id'] },
  },
  handles: HANDLES,
  // Counts: no personal field.
  readsPersonalData: false,
  evolve(rows, recorded) {
    const { landing_stats_users: users, landing_stats_ads: ads } = rows;
    /** Moves the figures by `delta`; the row exists once a figure first moved, even if all are back at 0 since. */
    const bump = (delta: Partial<Totals>) => {
      if (Object.values(delta).every((v) => v === 0)) return;
      const totals = rows.landing_stats.get(true) ?? {
        id: true,
        ads_published: 0,
        pets_adopted: 0,
        registered_vets: 0,
        community_members: 0,
      };
      const next = { ...totals };
      for (const [figure, by] of Object.entries(delta) as [keyof Totals, number][]) next[figure] += by;
      rows.landing_stats.put(next);
    };
    /** Changes a user's row and moves the figures by the difference it makes. */
    const changeUser = (id: string, next: (prev: UserRow | undefined) => UserRow | null) => {
      const prev = users.get(id);
      const row = next(prev);
      if (!row) return;
      users.put(row);
      const before = contribution(prev);
      const after = contribution(row);
      bump({
        community_members: after.community_members - before.community_members,
        registered_vets: after.registered_vets - before.registered_vets,
      });
    };
    const event = { type: recorded.type, data: recorded.data ?? {} } as Handled;
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        // A lapsed sign-up's stream can be registered again (by Google): the new registration replaces it.
        changeUser(userIdOfStream(recorded.streamId), () => ({
          id: userIdOfStream(recorded.streamId),
          is_veterinarian: d.isVeterinarian === true,
          is_admin: d.isAdmin === true,
          verified: d.via !== 'password',
        }));
        return;
      }
      case 'RegistrationRenewed':
        changeUser(userIdOfStream(recorded.streamId), (prev) =>
          prev ? { ...prev, is_veterinarian: event.data.isVeterinarian === true } : null,
        );
        return;
      case 'EmailVerified':
      case 'GoogleAccountLinked':
        // Google proves the address as the e-mail code does.
        changeUser(userIdOfStream(recorded.streamId), (prev) =>
          prev && !prev.verified ? { ...prev, verified: true } : null,
        );
        return;
      case 'UserDeleted': {
        // A deleted member no longer counts, nor do their ads (no longer listed): their rows go, so nothing here names
        // them, and later events of those ads find none. Pets adopted are history without a person in it: the
        // deleted user's adoptions stay counted.
        const id = event.data.userId;
        const gone = ads.find('owner_id', id);
        for (const ad of gone) ads.delete(ad.id);
        bump({ ads_published: -gone.filter((ad) => ad.counted).length });
        const prev = users.get(id);
        if (!prev) return;
        users.delete(id);
        const before = contribution(prev);
        bump({ community_members: -before.community_members, registered_vets: -before.registered_vets });
        return;
      }
      case 'AdoptionAdPublished': {
        const id = adIdOfStream(recorded.streamId);
        if (ads.get(id)) return; // published once
        ads.put({ id, owner_id: event.data.ownerId, counted: true, adopted: false });
        bump({ ads_published: 1 });
        return;
      }
      case 'AdoptionAdDeleted': {
        const ad = ads.get(adIdOfStream(recorded.streamId));
        if (!ad?.counted) return;
        ads.put({ ...ad, counted: false });
        bump({ ads_published: -1 });
        return;
      }
      case 'PetAdopted': {
        const ad = ads.get(adIdOfStream(recorded.streamId));
        if (!ad || ad.adopted) return;
        ads.put({ ...ad, adopted: true });
        bump({ pets_adopted: 1 });
        return;
      }
      default:
        return;
    }
  },
});
