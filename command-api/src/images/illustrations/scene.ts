import sharp from 'sharp';
import { shade, type Rng } from './palette';

/**
 * The stage every drawing stands on: an 800×600 canvas, a few backdrops (garden, room, sky, meadow), the soft shadow
 * under an animal and small props. Cards crop the picture to about 3:2 (cover), so the subject stays inside the
 * middle band (y 90–520).
 */

export const WIDTH = 800;
export const HEIGHT = 600;
/** Where animals stand: the ground line of every backdrop. */
export const GROUND = 500;

export type Backdrop = 'garden' | 'room' | 'sky' | 'meadow';

const SKIES = [
  ['#bfe3f5', '#eaf6fb'],
  ['#ffd9c2', '#fff1e3'],
  ['#cdeee0', '#f1fbf5'],
  ['#d9d4f5', '#f3f1fd'],
] as const;
const WALLS = ['#f6e3c6', '#dcebe3', '#f3d9d9', '#dfe5f3', '#f1e7d0'] as const;
const FLOORS = ['#c99a6b', '#b98a5e', '#d4b08a'] as const;
const GRASS = ['#8cc084', '#9ccf7f', '#7fb77e'] as const;
const RUGS = ['#e76f51', '#2a9d8f', '#e9c46a', '#8d99ae', '#d88c9a'] as const;

/** One cloud of three puffs. */
export const cloud = (x: number, y: number, s = 1) =>
  `<g fill="#ffffff" opacity="0.9" transform="translate(${x} ${y}) scale(${s})"><ellipse cx="0" cy="0" rx="46" ry="22"/><ellipse cx="-30" cy="6" rx="30" ry="16"/><ellipse cx="32" cy="6" rx="32" ry="16"/><ellipse cx="6" cy="-14" rx="26" ry="20"/></g>`;

/** A flower on a stem. */
const flower = (x: number, y: number, petal: string) =>
  `<g transform="translate(${x} ${y})"><path d="M0 0 q-3 -16 0 -30" stroke="#5a9a5a" stroke-width="3" fill="none"/>${[
    0, 72, 144, 216, 288,
  ]
    .map((a) => `<ellipse cx="0" cy="-38" rx="6" ry="9" fill="${petal}" transform="rotate(${a} 0 -30)"/>`)
    .join('')}<circle cx="0" cy="-30" r="5" fill="#f9c74f"/></g>`;

/** A tuft of grass blades. */
const tuft = (x: number, y: number, colour: string) =>
  `<path d="M${x - 12} ${y} q4 -18 6 -24 q2 12 4 18 q3 -16 8 -22 q0 14 -2 22 q6 -10 10 -14 q-2 10 -6 20 z" fill="${colour}"/>`;

function outdoor(rng: Rng, sky: readonly [string, string], grass: string, horizon: number) {
  const sun = rng.chance(0.5)
    ? `<circle cx="${rng.pick([120, 660, 690])}" cy="110" r="46" fill="#ffe08a"/>`
    : '';
  const petals = ['#ffffff', '#f28482', '#f6bd60', '#b5a1e6'];
  return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>
<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#sky)"/>${sun}
${cloud(rng.between(120, 260), rng.between(90, 150), 1.1)}${cloud(rng.between(540, 700), rng.between(70, 130), 0.8)}
<path d="M0 ${horizon + 30} C 200 ${horizon - 20} 420 ${horizon + 20} 800 ${horizon - 10} L800 600 L0 600 Z" fill="${shade(grass, 0.25)}"/>
<path d="M0 ${horizon + 70} C 260 ${horizon + 30} 520 ${horizon + 60} 800 ${horizon + 40} L800 600 L0 600 Z" fill="${grass}"/>
${tuft(90, 560, shade(grass, -0.2))}${tuft(700, 548, shade(grass, -0.2))}${tuft(610, 590, shade(grass, -0.15))}
${flower(70, 520, rng.pick(petals))}${flower(735, 510, rng.pick(petals))}${flower(160, 585, rng.pick(petals))}`;
}

function room(rng: Rng, rug: boolean) {
  const wall = rng.pick(WALLS);
  const floor = rng.pick(FLOORS);
  const colour = rng.pick(RUGS);
  const windowX = rng.pick([60, 560]);
  return `<rect width="${WIDTH}" height="${HEIGHT}" fill="${wall}"/>
<g fill="${shade(wall, -0.06)}">${Array.from({ length: 40 }, (_, i) => `<circle cx="${(i % 8) * 100 + 50 + (Math.floor(i / 8) % 2) * 50}" cy="${Math.floor(i / 8) * 90 + 40}" r="6"/>`).join('')}</g>
<rect x="${windowX}" y="70" width="180" height="200" rx="10" fill="#ffffff"/><rect x="${windowX + 12}" y="82" width="156" height="176" rx="4" fill="#bfe3f5"/>
${cloud(windowX + 70, 140, 0.6)}<rect x="${windowX + 86}" y="82" width="8" height="176" fill="#ffffff"/><rect x="${windowX + 12}" y="166" width="156" height="8" fill="#ffffff"/>
<rect y="400" width="${WIDTH}" height="200" fill="${floor}"/><rect y="400" width="${WIDTH}" height="10" fill="${shade(floor, -0.15)}"/>
${Array.from({ length: 5 }, (_, i) => `<rect x="0" y="${440 + i * 40}" width="${WIDTH}" height="3" fill="${shade(floor, -0.08)}"/>`).join('')}
${rug ? `<ellipse cx="400" cy="510" rx="300" ry="62" fill="${colour}"/><ellipse cx="400" cy="510" rx="270" ry="50" fill="none" stroke="${shade(colour, 0.3)}" stroke-width="6" stroke-dasharray="2 14" stroke-linecap="round"/>` : ''}`;
}

/** The backdrop behind an animal, its colours picked by `rng`; a room has a rug unless `rug` is false. */
export function backdrop(kind: Backdrop, rng: Rng, { rug = true } = {}): string {
  switch (kind) {
    case 'garden':
      return outdoor(rng, rng.pick(SKIES), rng.pick(GRASS), 390);
    case 'meadow':
      return outdoor(rng, rng.pick(SKIES), rng.pick(GRASS), 330);
    case 'room':
      return room(rng, rug);
    case 'sky': {
      const [top, bottom] = rng.pick(SKIES);
      return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs>
<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#sky)"/>${cloud(140, 130, 1.3)}${cloud(660, 110, 1)}${cloud(600, 470, 1.2)}${cloud(120, 480, 0.9)}`;
    }
  }
}

/** The soft shadow under an animal. */
export const shadow = (cx: number, cy: number, rx: number, ry = rx * 0.16) =>
  `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="#2b1d16" opacity="0.16"/>`;

/** A round floor cushion (for cats, dogs and rabbits indoors). */
export const cushion = (cx: number, cy: number, rx: number, colour: string) =>
  `<ellipse cx="${cx}" cy="${cy + 14}" rx="${rx}" ry="${rx * 0.24}" fill="${shade(colour, -0.25)}"/><ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${rx * 0.24}" fill="${colour}"/><ellipse cx="${cx}" cy="${cy - 4}" rx="${rx * 0.78}" ry="${rx * 0.16}" fill="${shade(colour, 0.15)}"/>`;

/** A complete picture: the canvas around `content`. */
export const canvas = (content: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${content}</svg>`;

/** The drawing as a PNG (the format every demo picture is uploaded in; the image store re-encodes it). */
export const rasterize = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();
