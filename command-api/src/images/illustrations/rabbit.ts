import { bow, type Accessory } from './accessories';
import { eyes } from './dog';
import { ACCESSORY_COLOURS, INK, PINK, shade, type Rng } from './palette';

/**
 * A rabbit, three-quarter front: sitting up or crouched low, both ears up or one flopped. The ground is y = 0, the
 * rabbit centred on x = 0.
 */

type Coat = { fur: string; light: string; patch?: string };

export const RABBIT_COATS = {
  white: { fur: '#f7f3ee', light: '#ffffff' },
  brown: { fur: '#b4835c', light: '#ecd5bd' },
  grey: { fur: '#a7a5a8', light: '#e6e4e6' },
  'black and white': { fur: '#f7f3ee', light: '#ffffff', patch: '#4a4242' },
  sandy: { fur: '#dcb88a', light: '#f6e8d4' },
} satisfies Record<string, Coat>;
export type RabbitCoat = keyof typeof RABBIT_COATS;

export type RabbitLook = {
  coat: RabbitCoat;
  pose: 'upright' | 'crouched';
  ears: 'up' | 'one down';
  tilt: number;
  eyes: 'open' | 'closed';
  accessory: Accessory;
  accessoryColour: string;
  /** A carrot beside it. */
  carrot: boolean;
};

export function rabbitLook(rng: Rng, coat?: RabbitCoat): RabbitLook {
  return {
    coat: coat ?? rng.pick(Object.keys(RABBIT_COATS) as RabbitCoat[]),
    pose: rng.chance(0.5) ? 'upright' : 'crouched',
    ears: rng.chance(0.6) ? 'up' : 'one down',
    tilt: rng.pick([0, -8, 8]),
    eyes: 'open',
    accessory: rng.pick(['bow', 'none'] as const),
    accessoryColour: rng.pick(ACCESSORY_COLOURS),
    carrot: rng.chance(0.6),
  };
}

function head(look: RabbitLook) {
  const c: Coat = RABBIT_COATS[look.coat];
  const ear = (x: number, rot: number) =>
    `<g transform="rotate(${rot} ${x} -30)"><ellipse cx="${x}" cy="-110" rx="24" ry="76" fill="${c.patch ?? c.fur}"/><ellipse cx="${x}" cy="-106" rx="12" ry="58" fill="${PINK}"/></g>`;
  const right = look.ears === 'up' ? ear(28, 10) : ear(28, 112);
  return `<g>${ear(-28, -10)}${right}
<ellipse cx="0" cy="0" rx="64" ry="56" fill="${c.fur}"/>
${c.patch ? `<path d="M-64 -4 C -64 -50 -20 -58 0 -56 C -10 -30 -20 -10 -64 -4 Z" fill="${c.patch}"/>` : ''}
<ellipse cx="-30" cy="24" rx="26" ry="20" fill="${c.light}"/><ellipse cx="30" cy="24" rx="26" ry="20" fill="${c.light}"/>
${eyes(30, -8, 10, look.eyes)}
<path d="M-8 14 L8 14 L0 22 Z" fill="#e07a8a"/>
<path d="M0 22 v6 M-10 32 q5 4 10 -4 q5 8 10 4" stroke="${INK}" stroke-width="3" fill="none" stroke-linecap="round"/>
<rect x="-6" y="33" width="12" height="10" rx="2" fill="#ffffff" stroke="${shade(c.light, -0.25)}" stroke-width="1.5"/>
<path d="M-26 24 L-70 16 M-26 30 L-68 36 M26 24 L70 16 M26 30 L68 36" stroke="${shade(c.light, -0.35)}" stroke-width="2" stroke-linecap="round"/>
<ellipse cx="-44" cy="14" rx="10" ry="6" fill="${PINK}" opacity="0.5"/><ellipse cx="44" cy="14" rx="10" ry="6" fill="${PINK}" opacity="0.5"/>
${look.accessory === 'bow' ? bow(-34, -50, look.accessoryColour, 20) : ''}
</g>`;
}

const carrot = (x: number) =>
  `<g transform="translate(${x} -14) rotate(-18)"><path d="M-12 -8 L58 -2 L58 -8 Q10 -30 -12 -22 Z" fill="#f08a24"/><path d="M-12 -8 Q-20 -14 -12 -22 L58 -8 Z" fill="#e27613"/><path d="M2 -16 h20 M18 -12 h14" stroke="#c65f0a" stroke-width="2"/><path d="M58 -6 l22 -14 M58 -6 l24 0 M58 -6 l20 12" stroke="#5a9a3a" stroke-width="7" stroke-linecap="round"/></g>`;

function upright(look: RabbitLook) {
  const c: Coat = RABBIT_COATS[look.coat];
  return `<circle cx="-86" cy="-56" r="24" fill="${c.light}"/>
<ellipse cx="0" cy="-90" rx="88" ry="92" fill="${c.fur}"/>
${c.patch ? `<ellipse cx="40" cy="-100" rx="40" ry="44" fill="${c.patch}"/>` : ''}
<ellipse cx="0" cy="-78" rx="52" ry="66" fill="${c.light}"/>
<ellipse cx="-64" cy="-18" rx="52" ry="22" fill="${shade(c.fur, -0.08)}"/><ellipse cx="64" cy="-18" rx="52" ry="22" fill="${shade(c.fur, -0.08)}"/>
<ellipse cx="-72" cy="-8" rx="40" ry="12" fill="${c.light}"/><ellipse cx="72" cy="-8" rx="40" ry="12" fill="${c.light}"/>
<ellipse cx="-24" cy="-100" rx="16" ry="24" fill="${c.fur}"/><ellipse cx="24" cy="-100" rx="16" ry="24" fill="${c.fur}"/>
${look.carrot ? carrot(110) : ''}
<g transform="translate(0 -200) rotate(${look.tilt} 0 40)">${head(look)}</g>`;
}

function crouched(look: RabbitLook) {
  const c: Coat = RABBIT_COATS[look.coat];
  return `<circle cx="150" cy="-70" r="26" fill="${c.light}"/>
<path d="M-90 -10 C -110 -90 -20 -140 60 -130 C 140 -120 180 -60 160 -10 C 140 6 -70 8 -90 -10 Z" fill="${c.fur}"/>
${c.patch ? `<ellipse cx="70" cy="-90" rx="50" ry="34" fill="${c.patch}"/>` : ''}
<ellipse cx="110" cy="-40" rx="56" ry="40" fill="${shade(c.fur, -0.08)}"/><ellipse cx="130" cy="-8" rx="44" ry="12" fill="${c.light}"/>
<ellipse cx="-40" cy="-50" rx="48" ry="40" fill="${c.light}"/>
<ellipse cx="-66" cy="-8" rx="22" ry="11" fill="${c.light}"/><ellipse cx="-20" cy="-8" rx="22" ry="11" fill="${c.light}"/>
${look.carrot ? carrot(-200) : ''}
<g transform="translate(-40 -140) rotate(${look.tilt} 0 40)">${head(look)}</g>`;
}

/** The rabbit (no backdrop), sitting on y = 0. */
export const rabbit = (look: RabbitLook) => (look.pose === 'upright' ? upright(look) : crouched(look));
