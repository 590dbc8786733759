import { bandana, bow, collar, type Accessory } from './accessories';
import { ACCESSORY_COLOURS, INK, NOSE, PINK, shade, type Rng } from './palette';

/**
 * A dog, drawn front-on: sitting (head possibly tilted) or lying with its front paws out. Its coat names the fur,
 * the ears and the markings; local coordinates have the ground at y = 0 and the dog centred on x = 0.
 */

type Coat = {
  fur: string;
  /** Muzzle, chest and paws. */
  light: string;
  ears: 'floppy' | 'pointy';
  /** A darker saddle and ears (shepherds), a patch round one eye, or none. */
  marking: 'none' | 'saddle' | 'patch';
};

export const DOG_COATS = {
  golden: { fur: '#e0a75e', light: '#f6dcae', ears: 'floppy', marking: 'none' },
  'black and tan': { fur: '#c98a4b', light: '#edc48e', ears: 'pointy', marking: 'saddle' },
  chocolate: { fur: '#8a5a3c', light: '#c89a74', ears: 'floppy', marking: 'none' },
  'white with patch': { fur: '#f3ece2', light: '#ffffff', ears: 'floppy', marking: 'patch' },
  cream: { fur: '#ecd3ab', light: '#fbf0dc', ears: 'floppy', marking: 'none' },
  grey: { fur: '#9aa0a8', light: '#dfe2e6', ears: 'floppy', marking: 'patch' },
  black: { fur: '#3f3a3a', light: '#8c8380', ears: 'floppy', marking: 'none' },
} satisfies Record<string, Coat>;
export type DogCoat = keyof typeof DOG_COATS;

export type DogLook = {
  coat: DogCoat;
  pose: 'sitting' | 'lying';
  /** Head tilt in degrees. */
  tilt: number;
  tongue: boolean;
  eyes: 'open' | 'closed';
  accessory: Accessory;
  accessoryColour: string;
};

export function dogLook(rng: Rng, coat?: DogCoat): DogLook {
  return {
    coat: coat ?? rng.pick(Object.keys(DOG_COATS) as DogCoat[]),
    pose: rng.chance(0.65) ? 'sitting' : 'lying',
    tilt: rng.pick([0, -9, 9]),
    tongue: rng.chance(0.6),
    eyes: 'open',
    accessory: rng.pick(['collar', 'bandana', 'collar', 'none'] as const),
    accessoryColour: rng.pick(ACCESSORY_COLOURS),
  };
}

/** Eyes with a highlight, or closed in a contented curve. */
export const eyes = (
  dx: number,
  y: number,
  r: number,
  state: 'open' | 'closed',
  iris = INK,
  onDark = false,
) =>
  state === 'closed'
    ? [-dx, dx]
        .map(
          (x) =>
            `<path d="M${x - r} ${y} q${r} ${r * 0.9} ${2 * r} 0" stroke="${INK}" stroke-width="4.5" fill="none" stroke-linecap="round"/>`,
        )
        .join('')
    : [-dx, dx]
        .map(
          (x) =>
            `${onDark ? `<circle cx="${x}" cy="${y}" r="${r + 4}" fill="#f3e6d8"/>` : ''}<circle cx="${x}" cy="${y}" r="${r}" fill="${iris}"/>${iris === INK ? '' : `<circle cx="${x}" cy="${y}" r="${r * 0.55}" fill="${INK}"/>`}<circle cx="${x + r * 0.35}" cy="${y - r * 0.35}" r="${r * 0.32}" fill="#ffffff"/>`,
        )
        .join('');

/** Fur too dark for ink eyes to show: they get a light rim. */
export const isDark = (fur: string) =>
  parseInt(fur.slice(1, 3), 16) + parseInt(fur.slice(3, 5), 16) + parseInt(fur.slice(5, 7), 16) < 220;

function head(look: DogLook) {
  const c: Coat = DOG_COATS[look.coat];
  const earFur = c.marking === 'saddle' ? '#3a2d28' : shade(c.fur, -0.18);
  const pointyEars = `<path d="M-66 -28 L-62 -112 L-12 -58 Z" fill="${earFur}"/><path d="M66 -28 L62 -112 L12 -58 Z" fill="${earFur}"/>
<path d="M-56 -44 L-56 -92 L-26 -60 Z" fill="${shade(PINK, -0.1)}" opacity="0.8"/><path d="M56 -44 L56 -92 L26 -60 Z" fill="${shade(PINK, -0.1)}" opacity="0.8"/>`;
  const floppyEars = `<path d="M-56 -50 C -100 -52 -112 10 -96 46 C -86 64 -64 58 -60 34 C -56 10 -50 -20 -46 -36 Z" fill="${earFur}"/>
<path d="M56 -50 C 100 -52 112 10 96 46 C 86 64 64 58 60 34 C 56 10 50 -20 46 -36 Z" fill="${earFur}"/>`;
  const patch =
    c.marking === 'patch'
      ? `<ellipse cx="-28" cy="-10" rx="26" ry="24" fill="${c.fur === '#f3ece2' ? '#8a5a3c' : '#4a4545'}"/>`
      : '';
  const mask =
    c.marking === 'saddle'
      ? `<path d="M-70 -10 C -66 -60 -30 -70 0 -70 C 30 -70 66 -60 70 -10 C 50 -30 20 -34 0 -20 C -20 -34 -50 -30 -70 -10 Z" fill="#3a2d28"/>`
      : '';
  const tongue =
    look.tongue && look.eyes === 'open'
      ? `<path d="M-11 46 Q-12 70 0 72 Q12 70 11 46 Z" fill="#e76f7a"/><path d="M0 50 v14" stroke="#c9505c" stroke-width="2.5"/>`
      : '';
  return `<g>
${c.ears === 'pointy' ? pointyEars : ''}
<ellipse cx="0" cy="0" rx="76" ry="68" fill="${c.fur}"/>
<ellipse cx="0" cy="-30" rx="52" ry="30" fill="${shade(c.fur, 0.12)}" opacity="0.55"/>
${mask}${patch}
<ellipse cx="0" cy="34" rx="46" ry="32" fill="${c.light}"/>
${tongue}
<path d="M0 24 v12 M-18 38 q9 10 18 -2 q9 12 18 2" stroke="${INK}" stroke-width="4" fill="none" stroke-linecap="round"/>
<ellipse cx="0" cy="16" rx="17" ry="12" fill="${NOSE}"/><ellipse cx="-5" cy="12" rx="6" ry="3.5" fill="#ffffff" opacity="0.55"/>
${eyes(28, -12, 10, look.eyes, INK, isDark(c.fur))}
<ellipse cx="-50" cy="24" rx="12" ry="7" fill="${PINK}" opacity="0.45"/><ellipse cx="50" cy="24" rx="12" ry="7" fill="${PINK}" opacity="0.45"/>
${c.ears === 'floppy' ? floppyEars : ''}
</g>`;
}

function neckWear(look: DogLook, y: number, half: number) {
  switch (look.accessory) {
    case 'collar':
      return collar(y, half, look.accessoryColour);
    case 'bandana':
      return bandana(y, half, look.accessoryColour);
    case 'bow':
      return bow(0, y + 10, look.accessoryColour);
    case 'none':
      return '';
  }
}

function sitting(look: DogLook) {
  const c: Coat = DOG_COATS[look.coat];
  const back = shade(c.fur, -0.12);
  const saddle =
    c.marking === 'saddle'
      ? `<path d="M-92 -120 C -96 -170 -60 -200 -40 -196 L-56 -110 Z M92 -120 C 96 -170 60 -200 40 -196 L56 -110 Z" fill="#3a2d28"/>`
      : '';
  return `<path d="M62 -60 C 120 -70 150 -120 140 -170" stroke="${back}" stroke-width="24" fill="none" stroke-linecap="round"/>
<ellipse cx="-72" cy="-46" rx="60" ry="50" fill="${back}"/><ellipse cx="72" cy="-46" rx="60" ry="50" fill="${back}"/>
<ellipse cx="-92" cy="-8" rx="34" ry="13" fill="${c.light}"/><ellipse cx="92" cy="-8" rx="34" ry="13" fill="${c.light}"/>
<path d="M-90 -40 C -100 -150 -60 -200 0 -200 C 60 -200 100 -150 90 -40 Z" fill="${c.fur}"/>
${saddle}
<ellipse cx="0" cy="-120" rx="44" ry="66" fill="${c.light}"/>
<rect x="-50" y="-130" width="38" height="126" rx="19" fill="${c.fur}"/><rect x="12" y="-130" width="38" height="126" rx="19" fill="${c.fur}"/>
<rect x="-50" y="-130" width="12" height="118" rx="6" fill="${shade(c.fur, -0.08)}" opacity="0.6"/><rect x="38" y="-130" width="12" height="118" rx="6" fill="${shade(c.fur, -0.08)}" opacity="0.6"/>
<ellipse cx="-31" cy="-8" rx="27" ry="14" fill="${c.light}"/><ellipse cx="31" cy="-8" rx="27" ry="14" fill="${c.light}"/>
<path d="M-38 -12 v6 M-24 -12 v6 M24 -12 v6 M38 -12 v6" stroke="${shade(c.light, -0.3)}" stroke-width="3" stroke-linecap="round"/>
${neckWear(look, -196, 52)}
<g transform="translate(0 -262) rotate(${look.tilt} 0 40)">${head(look)}</g>`;
}

function lying(look: DogLook) {
  const c: Coat = DOG_COATS[look.coat];
  const back = shade(c.fur, -0.12);
  const saddle =
    c.marking === 'saddle'
      ? `<path d="M-40 -96 C 20 -124 120 -120 170 -80 C 120 -96 40 -96 -40 -80 Z" fill="#3a2d28"/>`
      : '';
  return `<path d="M170 -30 C 220 -20 250 -30 270 -60" stroke="${back}" stroke-width="22" fill="none" stroke-linecap="round"/>
<ellipse cx="40" cy="-58" rx="150" ry="60" fill="${c.fur}"/>
${saddle}
<ellipse cx="130" cy="-54" rx="62" ry="52" fill="${back}"/><ellipse cx="150" cy="-10" rx="44" ry="13" fill="${c.light}"/>
<ellipse cx="-40" cy="-50" rx="56" ry="46" fill="${c.light}"/>
<rect x="-150" y="-36" width="120" height="34" rx="17" fill="${c.fur}"/><rect x="-160" y="-30" width="110" height="30" rx="15" fill="${shade(c.fur, 0.05)}"/>
<ellipse cx="-150" cy="-14" rx="24" ry="15" fill="${c.light}"/><ellipse cx="-140" cy="-24" rx="22" ry="13" fill="${c.light}"/>
<g transform="translate(-60 0)">${neckWear(look, -110, 46)}</g>
<g transform="translate(-60 -168) rotate(${look.tilt} 0 40)">${head(look)}</g>`;
}

/** The dog (no backdrop), standing on y = 0. */
export const dog = (look: DogLook) => (look.pose === 'sitting' ? sitting(look) : lying(look));
