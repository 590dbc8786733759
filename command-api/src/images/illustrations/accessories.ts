import { shade } from './palette';

/** What an animal may wear; each species file places it at its own neck or ear. */
export type Accessory = 'none' | 'collar' | 'bow' | 'bandana';

/** A collar across the neck, centred on (0, y), `half` wide either side, with a round gold tag. */
export const collar = (y: number, half: number, colour: string) =>
  `<path d="M${-half} ${y} Q0 ${y + half * 0.42} ${half} ${y}" stroke="${shade(colour, -0.25)}" stroke-width="17" fill="none" stroke-linecap="round"/>
<path d="M${-half} ${y - 2} Q0 ${y + half * 0.42 - 2} ${half} ${y - 2}" stroke="${colour}" stroke-width="12" fill="none" stroke-linecap="round"/>
<circle cx="0" cy="${y + half * 0.21 + 16}" r="11" fill="#f2c14e" stroke="#c9962b" stroke-width="3"/>`;

/** A bow with two loops and a knot at (x, y), `size` about the loops' length. */
export const bow = (x: number, y: number, colour: string, size = 26) =>
  `<g transform="translate(${x} ${y})"><path d="M0 0 L${-size} ${-size * 0.7} Q${-size * 1.2} 0 ${-size} ${size * 0.7} Z" fill="${colour}"/><path d="M0 0 L${size} ${-size * 0.7} Q${size * 1.2} 0 ${size} ${size * 0.7} Z" fill="${colour}"/>
<path d="M0 0 L${-size * 0.55} ${-size * 0.35} L${-size * 0.55} ${size * 0.35} Z M0 0 L${size * 0.55} ${-size * 0.35} L${size * 0.55} ${size * 0.35} Z" fill="${shade(colour, -0.2)}"/><circle r="${size * 0.3}" fill="${shade(colour, -0.12)}"/></g>`;

/** A neckerchief tied at the neck (0, y), its point hanging down over the chest. */
export const bandana = (y: number, half: number, colour: string) =>
  `<path d="M${-half} ${y} Q0 ${y + 22} ${half} ${y} L0 ${y + half * 1.05} Z" fill="${colour}"/>
<path d="M${-half} ${y} Q0 ${y + 22} ${half} ${y}" stroke="${shade(colour, -0.2)}" stroke-width="8" fill="none" stroke-linecap="round"/>
<g fill="#ffffff" opacity="0.75">${[-0.45, 0, 0.45].map((f) => `<circle cx="${f * half * 0.8}" cy="${y + 26 + Math.abs(f) * -12}" r="4"/>`).join('')}<circle cx="0" cy="${y + half * 0.6}" r="4"/></g>`;

/** A paper party hat with a pompom, its brim centred on (x, y). */
export const partyHat = (x: number, y: number, colour: string) =>
  `<g transform="translate(${x} ${y}) rotate(12)"><path d="M-34 0 L0 -88 L34 0 Z" fill="${colour}"/><path d="M-22 -30 L22 -30 M-12 -60 L12 -60" stroke="#ffffff" stroke-width="7" stroke-linecap="round"/><ellipse cx="0" cy="0" rx="36" ry="7" fill="${shade(colour, -0.2)}"/><circle cx="0" cy="-90" r="11" fill="#f9c74f"/></g>`;
