import { partyHat } from './accessories';
import { cat, catLook } from './cat';
import { dog, dogLook } from './dog';
import { rngOf, shade, type Rng } from './palette';
import { backdrop, canvas, cloud, HEIGHT, rasterize, shadow, WIDTH } from './scene';

/**
 * Drawn scenes for the demo's feed posts, in the same style as the pets: a rescued kitten asleep on a towel under a
 * caring hand, a dog cooling off in a tree's shade by its water bowl on a hot day, and a dog's adoption
 * anniversary at home (party hat, cake with one candle, bunting). The key picks the colours.
 */

/**
 * Where the scenes' subjects stand: higher than the pets' ground, because the feed shows a post's picture wide
 * (about 2:1 on a laptop), which crops the top and bottom sixth of the canvas.
 */
const SCENE_GROUND = 462;

export const POST_SCENES = ['rescue', 'summer shade', 'adoption anniversary'] as const;
export type PostScene = (typeof POST_SCENES)[number];

const heart = (x: number, y: number, size: number, colour: string) =>
  `<path transform="translate(${x} ${y}) scale(${size / 40})" d="M0 12 C -4 -2 -24 -6 -24 8 C -24 20 -6 30 0 38 C 6 30 24 20 24 8 C 24 -6 4 -2 0 12 Z" fill="${colour}"/>`;

/** A hand and forearm reaching in from the right, its palm resting at (0, 0). */
const hand = (skin: string, sleeve: string) =>
  `<path d="M30 -34 L330 -70 L330 40 L40 26 Z" fill="${sleeve}"/><path d="M30 -34 L60 -38 L66 30 L40 26 Z" fill="${shade(sleeve, -0.15)}"/>
<path d="M40 -30 C 10 -40 -40 -40 -70 -26 C -96 -14 -100 10 -80 22 C -50 34 10 32 40 24 Z" fill="${skin}"/>
${[0, 1, 2, 3].map((i) => `<path d="M${-60 + i * 4} ${-18 + i * 12} C ${-100 + i * 6} ${-14 + i * 12} ${-118 + i * 8} ${2 + i * 12} ${-112 + i * 8} ${14 + i * 10}" stroke="${skin}" stroke-width="22" fill="none" stroke-linecap="round"/>`).join('')}
${[0, 1, 2].map((i) => `<path d="M${-82 + i * 4} ${-4 + i * 12} q-10 4 -16 8" stroke="${shade(skin, -0.2)}" stroke-width="2.5" fill="none" stroke-linecap="round"/>`).join('')}
<path d="M10 -32 C -10 -52 -40 -58 -58 -50" stroke="${skin}" stroke-width="24" fill="none" stroke-linecap="round"/>`;

function rescue(rng: Rng) {
  const towel = rng.pick(['#8ecae6', '#f4a3a8', '#b8e0b8']);
  const kitten = catLook(rng, rng.pick(['ginger', 'calico', 'grey tabby'] as const));
  const asleep = {
    ...kitten,
    pose: 'loaf' as const,
    eyes: 'closed' as const,
    tilt: -10,
    accessory: 'none' as const,
  };
  const stripes = [0, 1, 2]
    .map(
      (i) =>
        `<path d="M${150 + i * 10} ${450 + i * 34} C 300 ${430 + i * 34} 500 ${470 + i * 34} ${650 - i * 10} ${450 + i * 34}" stroke="#ffffff" stroke-width="10" opacity="0.7" fill="none"/>`,
    )
    .join('');
  return `${backdrop('room', rng, { rug: false })}
<g transform="translate(0 -50)"><path d="M120 470 C 160 400 640 400 690 470 C 720 560 620 580 400 580 C 180 580 80 560 120 470 Z" fill="${shade(towel, -0.12)}"/>
<path d="M140 466 C 180 410 620 410 670 466 C 690 540 600 556 400 556 C 200 556 120 540 140 466 Z" fill="${towel}"/>${stripes}</g>
<g transform="translate(380 ${SCENE_GROUND}) scale(0.95)">${shadow(20, -4, 160)}${cat(asleep)}</g>
<g transform="translate(540 300) rotate(-8) scale(1.15)">${hand('#e0ac85', '#6d8fb3')}</g>
${heart(320, 150, 44, '#ef476f')}${heart(382, 120, 30, '#f28482')}`;
}

function summerShade(rng: Rng) {
  const look = {
    ...dogLook(rng, rng.pick(['golden', 'black and tan', 'chocolate'] as const)),
    pose: 'lying' as const,
    tongue: true,
    tilt: 0,
  };
  const canopy = rng.pick(['#5a9a3a', '#4f8a34', '#6aaa44']);
  const rays = Array.from({ length: 12 }, (_, i) => {
    const a = (i / 12) * Math.PI * 2;
    return `<path d="M${660 + Math.cos(a) * 70} ${110 + Math.sin(a) * 70} L${660 + Math.cos(a) * 96} ${110 + Math.sin(a) * 96}" stroke="#f9c74f" stroke-width="10" stroke-linecap="round"/>`;
  }).join('');
  return `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffe3b3"/>${rays}<circle cx="660" cy="110" r="56" fill="#ffd166"/>
${cloud(420, 90, 0.8)}
<path d="M0 360 C 200 330 500 350 800 330 L800 600 L0 600 Z" fill="#b5d98a"/>
<path d="M0 420 C 260 390 520 410 800 400 L800 600 L0 600 Z" fill="#9ccf7f"/>
<ellipse cx="260" cy="${SCENE_GROUND}" rx="260" ry="56" fill="#2b5a2b" opacity="0.18"/>
<path d="M96 ${SCENE_GROUND} L110 220 L150 220 L164 ${SCENE_GROUND} Z" fill="#8b5e3c"/><path d="M130 300 L70 240 M140 260 L200 210" stroke="#8b5e3c" stroke-width="14" stroke-linecap="round"/>
<g fill="${canopy}"><circle cx="60" cy="190" r="80"/><circle cx="150" cy="130" r="100"/><circle cx="250" cy="190" r="80"/><circle cx="170" cy="230" r="70"/></g>
<g fill="${shade(canopy, 0.18)}"><circle cx="130" cy="100" r="40"/><circle cx="230" cy="160" r="30"/></g>
<g transform="translate(290 ${SCENE_GROUND}) scale(0.95)">${dog(look)}</g>
<g transform="translate(600 ${SCENE_GROUND})"><ellipse cx="0" cy="4" rx="86" ry="14" fill="#2b1d16" opacity="0.15"/><path d="M-80 -36 L80 -36 L64 0 L-64 0 Z" fill="#e63946"/><ellipse cx="0" cy="-36" rx="80" ry="16" fill="${shade('#e63946', -0.2)}"/><ellipse cx="0" cy="-36" rx="68" ry="11" fill="#7cc6fe"/><ellipse cx="-20" cy="-38" rx="20" ry="4" fill="#ffffff" opacity="0.6"/></g>
<path d="M600 360 C 588 380 584 392 600 396 C 616 392 612 380 600 360 Z" fill="#7cc6fe"/>`;
}

function anniversary(rng: Rng) {
  const look = {
    ...dogLook(rng, rng.pick(['golden', 'white with patch', 'chocolate'] as const)),
    pose: 'sitting' as const,
    tilt: 0,
    accessory: 'collar' as const,
  };
  const flags = ['#ef476f', '#f9c74f', '#06d6a0', '#118ab2', '#9b5de5'];
  const bunting = Array.from({ length: 9 }, (_, i) => {
    const x = 20 + i * 92;
    const y = 70 + Math.sin((i / 8) * Math.PI) * 24;
    return `<path d="M${x} ${y} L${x + 70} ${y + 2} L${x + 35} ${y + 56} Z" fill="${flags[i % flags.length]}"/>`;
  }).join('');
  return `${backdrop('room', rng)}
<path d="M0 70 Q400 118 800 70" stroke="#8b5e3c" stroke-width="4" fill="none"/>${bunting}
<g transform="translate(300 ${SCENE_GROUND}) scale(0.86)">${shadow(0, 0, 150)}${dog(look)}${partyHat(14, -322, '#9b5de5')}</g>
<g transform="translate(580 ${SCENE_GROUND}) scale(0.9)">${shadow(0, 0, 110)}
<rect x="-96" y="-110" width="192" height="104" rx="14" fill="#f6d7b0"/>
<path d="M-96 -86 C -70 -66 -50 -96 -24 -76 C 0 -60 20 -92 48 -74 C 70 -60 84 -86 96 -80 L96 -110 L-96 -110 Z" fill="#f28fb0"/>
<ellipse cx="0" cy="-110" rx="96" ry="20" fill="#f7a8c4"/>
<rect x="-96" y="-50" width="192" height="10" fill="#e9b98a"/>
${[-60, -20, 20, 60].map((x) => `<circle cx="${x}" cy="-112" r="6" fill="#e63946"/>`).join('')}
<rect x="-7" y="-176" width="14" height="62" rx="4" fill="#118ab2"/><path d="M-7 -160 l14 -8 M-7 -140 l14 -8" stroke="#ffffff" stroke-width="4"/>
<path d="M0 -206 C -14 -188 -10 -178 0 -176 C 10 -178 14 -188 0 -206 Z" fill="#ffb703"/><path d="M0 -194 C -5 -186 -4 -182 0 -181 C 4 -182 5 -186 0 -194 Z" fill="#fff1c1"/>
</g>
${heart(470, 200, 40, '#ef476f')}${heart(170, 200, 30, '#f28482')}`;
}

const SCENES: Record<PostScene, (rng: Rng) => string> = {
  rescue,
  'summer shade': summerShade,
  'adoption anniversary': anniversary,
};

/** The SVG of a post's scene, its colours chosen by `key`. */
const postDrawing = (scene: PostScene, key: string) => canvas(SCENES[scene](rngOf(`post:${scene}:${key}`)));

/** The scene as an 800×600 PNG. */
export const postPicture = (scene: PostScene, key: string) => rasterize(postDrawing(scene, key));
