import { INK, shade, type Rng } from './palette';

/**
 * A parakeet perched on a leafy branch, in profile facing right: a long tail, a hooked beak and (ring-necks) a dark
 * collar ring. The branch runs at y = 0; the bird is centred on x = 0.
 */

type Plumage = { body: string; wing: string; beak: string; ring?: string };

export const BIRD_PLUMAGES = {
  green: { body: '#6cc24a', wing: '#3f8f3a', beak: '#e0453a', ring: '#2b2b2b' },
  blue: { body: '#5aa9e6', wing: '#2f6fb0', beak: '#f2a23a' },
  yellow: { body: '#f6d743', wing: '#d9a21b', beak: '#e96b3a' },
  turquoise: { body: '#4cc9b0', wing: '#23867a', beak: '#e0453a', ring: '#2b2b2b' },
  'sky and white': { body: '#a8d8f0', wing: '#5b8fc9', beak: '#f0b03a' },
} satisfies Record<string, Plumage>;
export type BirdPlumage = keyof typeof BIRD_PLUMAGES;

export type BirdLook = {
  plumage: BirdPlumage;
  /** Head tilt in degrees. */
  tilt: number;
  /** One wing raised as if waving. */
  wave: boolean;
  /** A berry sprig on the branch. */
  berries: boolean;
};

export function birdLook(rng: Rng, plumage?: BirdPlumage): BirdLook {
  return {
    plumage: plumage ?? rng.pick(Object.keys(BIRD_PLUMAGES) as BirdPlumage[]),
    tilt: rng.pick([0, -12, 10]),
    wave: rng.chance(0.4),
    berries: rng.chance(0.5),
  };
}

const leaf = (x: number, y: number, rot: number, colour: string) =>
  `<path d="M${x} ${y} q18 -22 44 -8 q-20 22 -44 8 z" fill="${colour}" transform="rotate(${rot} ${x} ${y})"/>`;

/** The branch from edge to edge, with leaves. */
const branch = (berries: boolean) =>
  `<path d="M-420 30 C -200 -10 100 20 420 -10 L420 10 C 100 40 -200 10 -420 52 Z" fill="#8b5e3c"/>
<path d="M-420 30 C -200 -10 100 20 420 -10" stroke="#a9774f" stroke-width="6" fill="none"/>
<path d="M160 10 q40 -30 90 -40" stroke="#8b5e3c" stroke-width="12" fill="none" stroke-linecap="round"/>
${leaf(-260, 14, -30, '#5a9a3a')}${leaf(-200, 10, 150, '#6fb24a')}${leaf(230, -28, -20, '#5a9a3a')}${leaf(200, -18, 160, '#6fb24a')}${leaf(300, -8, 20, '#4f8a34')}
${berries ? `<g fill="#d64545"><circle cx="-150" cy="30" r="10"/><circle cx="-134" cy="40" r="9"/><circle cx="-160" cy="44" r="8"/></g>` : ''}`;

/** The parakeet and its branch (no sky). */
export function bird(look: BirdLook) {
  const p: Plumage = BIRD_PLUMAGES[look.plumage];
  const scallops = [0, 1, 2]
    .map(
      (i) =>
        `<path d="M${-38 + i * 6} ${-96 + i * 26} q16 12 32 0" stroke="${shade(p.wing, -0.2)}" stroke-width="3" fill="none"/>`,
    )
    .join('');
  const wing = look.wave
    ? `<path d="M-20 -120 C -90 -190 -130 -170 -120 -140 C -110 -110 -60 -90 -10 -84 Z" fill="${p.wing}"/><path d="M-110 -150 q20 10 40 4 M-100 -128 q20 8 44 4" stroke="${shade(p.wing, -0.2)}" stroke-width="3" fill="none"/>`
    : `<path d="M-44 -120 C -20 -140 20 -110 14 -60 C 8 -20 -30 10 -60 30 C -62 -10 -66 -80 -44 -120 Z" fill="${p.wing}"/>${scallops}`;
  return `${branch(look.berries)}
<path d="M-40 -20 L-150 150 L-120 156 L-20 0 Z" fill="${p.wing}"/><path d="M-50 -10 L-170 130 L-150 142 L-36 4 Z" fill="${shade(p.wing, -0.15)}"/>
<path d="M-64 -40 C -80 -130 -20 -190 30 -180 C 80 -170 80 -90 50 -30 C 30 10 -50 20 -64 -40 Z" fill="${p.body}"/>
<path d="M0 -150 C 40 -150 60 -100 44 -40 C 30 0 0 10 -10 -20 C 20 -60 20 -110 0 -150 Z" fill="${shade(p.body, 0.2)}"/>
${wing}
<path d="M-6 4 l-8 16 M6 4 l0 18 M18 2 l8 16" stroke="#8c8c8c" stroke-width="7" stroke-linecap="round"/>
<g transform="translate(30 -196) rotate(${look.tilt} 0 30)">
<circle cx="0" cy="0" r="56" fill="${p.body}"/>
<circle cx="-10" cy="-14" r="30" fill="${shade(p.body, 0.15)}" opacity="0.6"/>
${p.ring ? `<path d="M-40 40 Q10 70 52 26" stroke="${p.ring}" stroke-width="7" fill="none" stroke-linecap="round"/><path d="M-38 48 Q10 78 50 34" stroke="#f28fb0" stroke-width="5" fill="none" stroke-linecap="round"/>` : ''}
<path d="M36 -14 C 70 -20 84 6 74 32 C 66 22 56 16 44 18 Z" fill="${p.beak}"/><path d="M44 18 C 56 16 64 24 66 30 C 56 34 46 30 42 24 Z" fill="${shade(p.beak, -0.25)}"/>
<circle cx="16" cy="-10" r="13" fill="#ffffff"/><circle cx="19" cy="-10" r="8" fill="${INK}"/><circle cx="22" cy="-13" r="3" fill="#ffffff"/>
<ellipse cx="20" cy="14" rx="9" ry="5" fill="#f4a6a0" opacity="0.5"/>
</g>`;
}
