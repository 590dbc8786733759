import { bow, type Accessory } from './accessories';
import { eyes, isDark } from './dog';
import { ACCESSORY_COLOURS, INK, PINK, shade, type Rng } from './palette';

/**
 * A hamster: a round body with no neck, small round ears, puffed cheeks and tiny paws, standing up with a sunflower
 * seed or sitting as a ball. The ground is y = 0, the hamster centred on x = 0.
 */

type Coat = { fur: string; light: string };

export const HAMSTER_COATS = {
  golden: { fur: '#e3a65a', light: '#fff3e0' },
  cream: { fur: '#f0d5a8', light: '#fffaf0' },
  grey: { fur: '#b3aca6', light: '#f6f3ef' },
  cinnamon: { fur: '#c97b4a', light: '#fbe6d2' },
  'black bear': { fur: '#4a403c', light: '#d8cbc0' },
} satisfies Record<string, Coat>;
export type HamsterCoat = keyof typeof HAMSTER_COATS;

export type HamsterLook = {
  coat: HamsterCoat;
  pose: 'standing' | 'ball';
  tilt: number;
  eyes: 'open' | 'closed';
  accessory: Accessory;
  accessoryColour: string;
};

export function hamsterLook(rng: Rng, coat?: HamsterCoat): HamsterLook {
  return {
    coat: coat ?? rng.pick(Object.keys(HAMSTER_COATS) as HamsterCoat[]),
    pose: rng.chance(0.55) ? 'standing' : 'ball',
    tilt: rng.pick([0, -8, 8]),
    eyes: 'open',
    accessory: rng.pick(['bow', 'none', 'none'] as const),
    accessoryColour: rng.pick(ACCESSORY_COLOURS),
  };
}

/** The face on the upper body, centred on (0, 0). */
function face(look: HamsterLook) {
  const c: Coat = HAMSTER_COATS[look.coat];
  return `<ellipse cx="-54" cy="26" rx="34" ry="28" fill="${c.light}"/><ellipse cx="54" cy="26" rx="34" ry="28" fill="${c.light}"/>
${eyes(34, -4, 10, look.eyes, INK, isDark(c.fur))}
<ellipse cx="0" cy="16" rx="8" ry="6" fill="#e07a8a"/>
<path d="M0 22 v5 M-9 30 q4.5 5 9 -3 q4.5 8 9 3" stroke="${INK}" stroke-width="3" fill="none" stroke-linecap="round"/>
<path d="M-22 20 L-62 12 M-22 26 L-60 32 M22 20 L62 12 M22 26 L60 32" stroke="${shade(c.light, -0.4)}" stroke-width="2" stroke-linecap="round"/>
<ellipse cx="-54" cy="20" rx="11" ry="7" fill="${PINK}" opacity="0.6"/><ellipse cx="54" cy="20" rx="11" ry="7" fill="${PINK}" opacity="0.6"/>`;
}

const ears = (c: Coat, y: number, spread: number) =>
  [-1, 1]
    .map(
      (s) =>
        `<circle cx="${s * spread}" cy="${y}" r="26" fill="${shade(c.fur, -0.12)}"/><circle cx="${s * spread}" cy="${y + 2}" r="15" fill="${PINK}"/>`,
    )
    .join('');

const seed = `<g><ellipse cx="0" cy="0" rx="13" ry="22" fill="#3d3530"/><path d="M-4 -16 L-4 16 M4 -16 L4 16" stroke="#e8e0d0" stroke-width="2.5"/></g>`;

function standing(look: HamsterLook) {
  const c: Coat = HAMSTER_COATS[look.coat];
  return `${ears(c, -236, 62)}
<ellipse cx="0" cy="-120" rx="112" ry="128" fill="${c.fur}"/>
<ellipse cx="0" cy="-84" rx="74" ry="84" fill="${c.light}"/>
<ellipse cx="-50" cy="-6" rx="30" ry="12" fill="#f2b8b0"/><ellipse cx="50" cy="-6" rx="30" ry="12" fill="#f2b8b0"/>
<g transform="translate(0 -176) rotate(${look.tilt} 0 40)">${face(look)}</g>
<g transform="translate(0 -96)">${seed}</g>
<ellipse cx="-18" cy="-100" rx="14" ry="10" fill="#f2b8b0"/><ellipse cx="18" cy="-100" rx="14" ry="10" fill="#f2b8b0"/>
${look.accessory === 'bow' ? bow(-56, -226, look.accessoryColour, 20) : ''}`;
}

function ball(look: HamsterLook) {
  const c: Coat = HAMSTER_COATS[look.coat];
  return `${ears(c, -212, 76)}
<ellipse cx="0" cy="-108" rx="138" ry="110" fill="${c.fur}"/>
<ellipse cx="-40" cy="-170" rx="60" ry="30" fill="${shade(c.fur, 0.12)}" opacity="0.6"/>
<ellipse cx="0" cy="-62" rx="96" ry="62" fill="${c.light}"/>
<g transform="translate(0 -136) rotate(${look.tilt} 0 40)">${face(look)}</g>
<ellipse cx="-34" cy="-44" rx="15" ry="11" fill="#f2b8b0"/><ellipse cx="34" cy="-44" rx="15" ry="11" fill="#f2b8b0"/>
<ellipse cx="-80" cy="-4" rx="30" ry="11" fill="#f2b8b0"/><ellipse cx="80" cy="-4" rx="30" ry="11" fill="#f2b8b0"/>
<g transform="translate(170 -18) rotate(70)">${seed}</g><g transform="translate(210 -16) rotate(100)">${seed}</g>
${look.accessory === 'bow' ? bow(-74, -206, look.accessoryColour, 20) : ''}`;
}

/** The hamster (no backdrop), sitting on y = 0. */
export const hamster = (look: HamsterLook) => (look.pose === 'standing' ? standing(look) : ball(look));
