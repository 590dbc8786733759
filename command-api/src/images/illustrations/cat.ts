import { bow, collar, type Accessory } from './accessories';
import { eyes } from './dog';
import { ACCESSORY_COLOURS, INK, PINK, shade, type Rng } from './palette';

/**
 * A cat, front-on: sitting with its tail round its paws, or curled up as a loaf. The coat names the fur and its
 * markings (tabby stripes, white chest and socks, calico patches); the ground is y = 0, the cat centred on x = 0.
 */

type Coat = {
  fur: string;
  light: string;
  marking: 'none' | 'tabby' | 'tuxedo' | 'calico';
  /** Long fur: a ruff round the face (Persians). */
  fluffy?: boolean;
};

export const CAT_COATS = {
  tabby: { fur: '#e59a4f', light: '#f8d9b0', marking: 'tabby' },
  'grey tabby': { fur: '#9a9ea6', light: '#e3e4e8', marking: 'tabby' },
  'fluffy white': { fur: '#f1ebe3', light: '#ffffff', marking: 'none', fluffy: true },
  'fluffy cream': { fur: '#efd7b4', light: '#fff4e4', marking: 'none', fluffy: true },
  tuxedo: { fur: '#3d3838', light: '#f7f3ee', marking: 'tuxedo' },
  calico: { fur: '#f4ede4', light: '#ffffff', marking: 'calico' },
  ginger: { fur: '#e9873a', light: '#fbe1c4', marking: 'none' },
} satisfies Record<string, Coat>;
export type CatCoat = keyof typeof CAT_COATS;

const IRISES = ['#9ccc65', '#f9c74f', '#64b5f6', '#e8a33d'] as const;

export type CatLook = {
  coat: CatCoat;
  pose: 'sitting' | 'loaf';
  tilt: number;
  iris: string;
  eyes: 'open' | 'closed';
  accessory: Accessory;
  accessoryColour: string;
};

export function catLook(rng: Rng, coat?: CatCoat): CatLook {
  return {
    coat: coat ?? rng.pick(Object.keys(CAT_COATS) as CatCoat[]),
    pose: rng.chance(0.6) ? 'sitting' : 'loaf',
    tilt: rng.pick([0, -10, 10]),
    iris: rng.pick(IRISES),
    eyes: 'open',
    accessory: rng.pick(['collar', 'bow', 'none'] as const),
    accessoryColour: rng.pick(ACCESSORY_COLOURS),
  };
}

function head(look: CatLook) {
  const c: Coat = CAT_COATS[look.coat];
  const ear = (side: 1 | -1) =>
    `<path d="M${side * 66} -6 L${side * 62} -96 L${side * 14} -52 Z" fill="${c.marking === 'calico' && side < 0 ? '#e08a3c' : c.fur}"/><path d="M${side * 56} -22 L${side * 56} -78 L${side * 26} -52 Z" fill="${PINK}"/>`;
  const stripes =
    c.marking === 'tabby'
      ? `<path d="M0 -60 v22 M-18 -58 l4 18 M18 -58 l-4 18" stroke="${shade(c.fur, -0.3)}" stroke-width="6" stroke-linecap="round"/><path d="M-74 4 h18 M-72 20 h16 M74 4 h-18 M72 20 h-16" stroke="${shade(c.fur, -0.3)}" stroke-width="5" stroke-linecap="round"/>`
      : '';
  const patches =
    c.marking === 'calico'
      ? `<path d="M-70 -20 C -70 -56 -40 -66 -8 -64 C -14 -40 -30 -20 -70 -20 Z" fill="#e08a3c"/><path d="M70 0 C 72 -40 50 -60 20 -62 C 30 -40 40 -10 70 0 Z" fill="#4a4040"/>`
      : '';
  const ruff = c.fluffy
    ? `<g fill="${c.fur}">${Array.from({ length: 12 }, (_, i) => {
        const a = (i / 12) * Math.PI * 2;
        return `<circle cx="${Math.cos(a) * 72}" cy="${Math.sin(a) * 58 + 10}" r="22"/>`;
      }).join('')}</g>`
    : '';
  const whiskers = `<path d="M-34 26 L-84 18 M-34 34 L-82 38 M34 26 L84 18 M34 34 L82 38" stroke="${shade(c.light, -0.35)}" stroke-width="2.5" stroke-linecap="round"/>`;
  return `<g>${ear(-1)}${ear(1)}${ruff}
<ellipse cx="0" cy="0" rx="74" ry="62" fill="${c.fur}"/>${patches}${stripes}
<ellipse cx="0" cy="30" rx="40" ry="26" fill="${c.light}"/>
${c.marking === 'tuxedo' ? `<path d="M-12 -62 Q0 -20 0 10 Q0 -20 12 -62 Z" fill="${c.light}" opacity="0.9"/>` : ''}
${eyes(30, -6, 13, look.eyes, look.iris)}
<path d="M-9 16 L9 16 L0 26 Z" fill="#e07a8a"/>
<path d="M0 26 v6 M-14 36 q7 6 14 -4 q7 10 14 4" stroke="${INK}" stroke-width="3.5" fill="none" stroke-linecap="round"/>
${whiskers}
<ellipse cx="-48" cy="20" rx="11" ry="6" fill="${PINK}" opacity="0.5"/><ellipse cx="48" cy="20" rx="11" ry="6" fill="${PINK}" opacity="0.5"/>
</g>`;
}

/** A collar on the neck; a bow sits by the ear instead (see the head's placement). */
const collarOf = (look: CatLook, y: number, half: number) =>
  look.accessory === 'collar' ? collar(y, half, look.accessoryColour) : '';
const bowOf = (look: CatLook) => (look.accessory === 'bow' ? bow(44, -64, look.accessoryColour, 22) : '');

function sitting(look: CatLook) {
  const c: Coat = CAT_COATS[look.coat];
  const back = shade(c.fur, -0.1);
  const stripes =
    c.marking === 'tabby'
      ? `<path d="M-76 -120 q14 6 22 -2 M-84 -86 q14 6 24 -2 M76 -120 q-14 6 -22 -2 M84 -86 q-14 6 -24 -2" stroke="${shade(c.fur, -0.3)}" stroke-width="6" fill="none" stroke-linecap="round"/>`
      : '';
  const chest = c.marking === 'tuxedo' || c.marking === 'calico' || c.fluffy || c.marking === 'tabby';
  return `<path d="M50 -12 C 130 -6 150 -70 120 -120 C 110 -140 130 -160 146 -150" stroke="${back}" stroke-width="22" fill="none" stroke-linecap="round"/>
${c.marking === 'tabby' ? `<path d="M116 -40 l18 -8 M130 -80 l18 2 M118 -120 l18 -8" stroke="${shade(c.fur, -0.3)}" stroke-width="6" stroke-linecap="round"/>` : ''}
<ellipse cx="-56" cy="-40" rx="52" ry="42" fill="${back}"/><ellipse cx="56" cy="-40" rx="52" ry="42" fill="${back}"/>
<path d="M-86 -30 C -96 -140 -56 -180 0 -180 C 56 -180 96 -140 86 -30 C 60 0 -60 0 -86 -30 Z" fill="${c.fur}"/>${stripes}
${chest ? `<ellipse cx="0" cy="-100" rx="40" ry="62" fill="${c.light}"/>` : ''}
${c.marking === 'calico' ? `<ellipse cx="-60" cy="-70" rx="26" ry="36" fill="#e08a3c"/><ellipse cx="62" cy="-54" rx="22" ry="30" fill="#4a4040"/>` : ''}
<rect x="-44" y="-116" width="32" height="112" rx="16" fill="${c.fur}"/><rect x="12" y="-116" width="32" height="112" rx="16" fill="${c.fur}"/>
<ellipse cx="-28" cy="-8" rx="22" ry="12" fill="${c.marking === 'tuxedo' ? c.light : shade(c.fur, 0.15)}"/><ellipse cx="28" cy="-8" rx="22" ry="12" fill="${c.marking === 'tuxedo' ? c.light : shade(c.fur, 0.15)}"/>
${collarOf(look, -176, 46)}
<g transform="translate(0 -232) rotate(${look.tilt} 0 40)">${head(look)}${bowOf(look)}</g>`;
}

function loaf(look: CatLook) {
  const c: Coat = CAT_COATS[look.coat];
  const back = shade(c.fur, -0.1);
  const stripes =
    c.marking === 'tabby'
      ? `<path d="M40 -118 q10 20 0 40 M80 -110 q10 20 0 40 M120 -96 q8 18 0 34" stroke="${shade(c.fur, -0.3)}" stroke-width="7" fill="none" stroke-linecap="round"/>`
      : '';
  return `<path d="M150 -24 C 190 -20 200 10 150 8 C 60 10 -40 8 -90 4" stroke="${back}" stroke-width="22" fill="none" stroke-linecap="round"/>
<path d="M-130 -10 C -150 -90 -70 -130 20 -130 C 120 -130 180 -90 170 -20 C 160 0 -110 10 -130 -10 Z" fill="${c.fur}"/>${stripes}
${c.marking === 'calico' ? `<ellipse cx="90" cy="-80" rx="44" ry="30" fill="#e08a3c"/><ellipse cx="20" cy="-110" rx="30" ry="18" fill="#4a4040"/>` : ''}
<ellipse cx="-40" cy="-40" rx="58" ry="40" fill="${c.marking === 'none' && !c.fluffy ? shade(c.fur, 0.08) : c.light}"/>
<ellipse cx="-70" cy="-6" rx="26" ry="12" fill="${shade(c.fur, 0.15)}"/><ellipse cx="-16" cy="-6" rx="26" ry="12" fill="${shade(c.fur, 0.15)}"/>
<g transform="translate(-44 0)">${collarOf(look, -96, 44)}</g>
<g transform="translate(-44 -150) rotate(${look.tilt} 0 40)">${head(look)}${bowOf(look)}</g>`;
}

/** The cat (no backdrop), standing on y = 0. */
export const cat = (look: CatLook) => (look.pose === 'sitting' ? sitting(look) : loaf(look));
