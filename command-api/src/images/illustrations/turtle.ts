import { INK, PINK, shade, type Rng } from './palette';

/**
 * A tortoise (the product's "Other" pets), in profile walking right: a domed shell of plates, a smiling head and
 * stubby legs, sometimes with a strawberry to nibble. The ground is y = 0, the tortoise centred on x = 0.
 */

type Shell = { shell: string; plate: string; skin: string };

export const TURTLE_SHELLS = {
  olive: { shell: '#7a9a4a', plate: '#a3bf6a', skin: '#b7c98a' },
  brown: { shell: '#9a6b3e', plate: '#c89a62', skin: '#c9b48a' },
  teal: { shell: '#3f8f86', plate: '#6cbfae', skin: '#a8c99a' },
  amber: { shell: '#c98a2e', plate: '#e8b45a', skin: '#bfc48a' },
} satisfies Record<string, Shell>;
export type TurtleShell = keyof typeof TURTLE_SHELLS;

export type TurtleLook = {
  shell: TurtleShell;
  /** Head raised (looking up) or level. */
  headUp: boolean;
  strawberry: boolean;
};

export function turtleLook(rng: Rng, shell?: TurtleShell): TurtleLook {
  return {
    shell: shell ?? rng.pick(Object.keys(TURTLE_SHELLS) as TurtleShell[]),
    headUp: rng.chance(0.5),
    strawberry: rng.chance(0.6),
  };
}

const strawberry = `<g transform="translate(330 -22)"><path d="M-22 -14 C -24 10 -6 24 0 24 C 6 24 24 10 22 -14 C 10 -22 -10 -22 -22 -14 Z" fill="#e63946"/>
<g fill="#ffd6a5">${[
  [-10, -4],
  [6, -6],
  [-2, 8],
  [12, 6],
  [-12, 10],
]
  .map(([x, y]) => `<ellipse cx="${x}" cy="${y}" rx="2" ry="3"/>`)
  .join('')}</g>
<path d="M-18 -16 l8 -10 l6 8 l6 -10 l6 10 l6 -8 l4 10 Z" fill="#5a9a3a"/></g>`;

/** The tortoise (no backdrop), walking on y = 0. */
export function turtle(look: TurtleLook) {
  const s: Shell = TURTLE_SHELLS[look.shell];
  const leg = (x: number, back: boolean) =>
    `<path d="M${x - 28} -44 C ${x - 34} -20 ${x - 30} 0 ${x - 20} 0 L${x + 20} 0 C ${x + 32} 0 ${x + 34} -20 ${x + 28} -44 Z" fill="${back ? shade(s.skin, -0.15) : s.skin}"/><path d="M${x - 14} -6 v-6 M${x} -4 v-6 M${x + 14} -6 v-6" stroke="${shade(s.skin, -0.35)}" stroke-width="3" stroke-linecap="round"/>`;
  const headAngle = look.headUp ? -22 : 0;
  return `${look.strawberry ? strawberry : ''}
${leg(-60, true)}${leg(60, true)}
<path d="M-170 -56 q-30 8 -40 20 q22 2 44 -6 z" fill="${s.skin}"/>
<g transform="rotate(${headAngle} 140 -70) translate(40 0)">
<path d="M70 -96 C 120 -106 160 -104 176 -100 L176 -56 C 150 -50 110 -48 70 -50 Z" fill="${s.skin}"/>
<path d="M100 -70 q20 6 40 0" stroke="${shade(s.skin, -0.25)}" stroke-width="3" fill="none"/>
<ellipse cx="196" cy="-100" rx="52" ry="44" fill="${s.skin}"/>
<ellipse cx="186" cy="-118" rx="26" ry="14" fill="${shade(s.skin, 0.2)}" opacity="0.6"/>
<circle cx="214" cy="-110" r="11" fill="${INK}"/><circle cx="218" cy="-114" r="3.5" fill="#ffffff"/>
<path d="M214 -80 q18 10 32 -4" stroke="${INK}" stroke-width="4" fill="none" stroke-linecap="round"/>
<ellipse cx="226" cy="-90" rx="9" ry="5" fill="${PINK}" opacity="0.6"/>
</g>
<path d="M-180 -46 C -176 -170 -90 -220 0 -220 C 90 -220 170 -170 172 -46 Z" fill="${s.shell}"/>
<path d="M-60 -200 L0 -208 L60 -200 L70 -140 L0 -124 L-70 -140 Z" fill="${s.plate}"/>
<path d="M-150 -80 C -140 -140 -110 -170 -80 -188 L-70 -140 L-90 -70 Z" fill="${s.plate}"/>
<path d="M150 -80 C 140 -140 110 -170 80 -188 L70 -140 L90 -70 Z" fill="${s.plate}"/>
<path d="M-74 -70 L-62 -128 L0 -112 L62 -128 L74 -70 Z" fill="${s.plate}"/>
<path d="M-196 -46 L188 -46 Q188 -22 170 -22 L-176 -22 Q-196 -22 -196 -46 Z" fill="${shade(s.shell, -0.2)}"/>
<path d="M-130 -46 v24 M-60 -46 v24 M10 -46 v24 M80 -46 v24 M140 -46 v24" stroke="${shade(s.shell, -0.35)}" stroke-width="3"/>
<path d="M-140 -190 C -100 -230 -20 -236 20 -228" stroke="#ffffff" stroke-width="8" opacity="0.3" fill="none" stroke-linecap="round"/>
${leg(-126, false)}${leg(126, false)}`;
}
