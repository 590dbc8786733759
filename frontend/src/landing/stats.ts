import type { LandingStatsDto } from '@pawhaven/contracts';

/**
 * The landing page's stats strip: four figures read live from GET /api/stats/landing. A figure that is not there yet
 * (an empty database, a failed read, a zero) shows a placeholder instead: '0k' for adoption, rescued and clients, '4+'
 * for services.
 */
type StatKey = 'adoption' | 'rescued' | 'clients' | 'services';

type StatItem = {
  key: StatKey;
  /** The figure's label. */
  label: string;
  /** What the live figure counts. */
  caption: string;
  /** The line under the placeholder. */
  placeholderCaption: string;
  field: keyof LandingStatsDto;
  placeholder: string;
};

const STAT_ITEMS: readonly StatItem[] = [
  {
    key: 'adoption',
    label: 'Adoption',
    caption: 'pets adopted into loving homes',
    placeholderCaption: 'pets adopted into loving homes',
    field: 'petsAdopted',
    placeholder: '0k',
  },
  {
    key: 'rescued',
    label: 'Rescued',
    caption: 'rescued pets listed for adoption',
    placeholderCaption: 'rescued pets looking for a home',
    field: 'adsPublished',
    placeholder: '0k',
  },
  {
    key: 'clients',
    label: 'Clients',
    caption: 'members in our community',
    placeholderCaption: 'pet lovers in our community',
    field: 'communityMembers',
    placeholder: '0k',
  },
  {
    key: 'services',
    label: 'Services',
    caption: 'registered vets ready to help',
    placeholderCaption: 'care services for your pet',
    field: 'registeredVets',
    placeholder: '4+',
  },
];

/** A figure as shown: its value and the line under it (`caption` of the live figure or of the placeholder). */
export type StatFigure = Omit<StatItem, 'placeholderCaption'> & { value: string; live: boolean };

/** A count as shown on the strip: 999 → '999', 1200 → '1.2k', 15000 → '15k', 2500000 → '2.5M'. */
export function formatCount(n: number): string {
  const whole = Math.floor(n);
  const short = (value: number, unit: string) => {
    // One decimal below 10 of the unit, none above; never rounded up into the next unit's '1000k'.
    const digits = value < 10 ? 1 : 0;
    const factor = 10 ** digits;
    const cut = Math.floor(value * factor) / factor;
    return `${cut.toFixed(digits).replace(/\.0$/, '')}${unit}`;
  };
  if (whole >= 1_000_000) return short(whole / 1_000_000, 'M');
  if (whole >= 1_000) return short(whole / 1_000, 'k');
  return String(whole);
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 1;

/**
 * The four figures of the strip from whatever the stats endpoint answered (`null` when it failed or has not
 * answered): each positive count is shown live, anything else falls back to the placeholder.
 */
export function statFigures(stats: unknown): StatFigure[] {
  const record = stats && typeof stats === 'object' ? (stats as Record<string, unknown>) : {};
  return STAT_ITEMS.map(({ placeholderCaption, ...item }) => {
    const raw = record[item.field];
    return isCount(raw)
      ? { ...item, value: formatCount(raw), live: true }
      : { ...item, caption: placeholderCaption, value: item.placeholder, live: false };
  });
}
