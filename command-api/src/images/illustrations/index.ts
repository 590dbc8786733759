import type { PetType } from '@pawhaven/contracts';
import { bird, BIRD_PLUMAGES, birdLook, type BirdPlumage } from './bird';
import { cat, CAT_COATS, catLook, type CatCoat } from './cat';
import { dog, DOG_COATS, dogLook, type DogCoat } from './dog';
import { hamster, HAMSTER_COATS, hamsterLook, type HamsterCoat } from './hamster';
import { rngOf, type Rng } from './palette';
import { rabbit, RABBIT_COATS, rabbitLook, type RabbitCoat } from './rabbit';
import { backdrop, canvas, cushion, GROUND, rasterize, shadow } from './scene';
import { turtle, TURTLE_SHELLS, turtleLook, type TurtleShell } from './turtle';

/**
 * Drawn pictures of pets, for the demo content: one animal per pet type (a tortoise for "Other"), each pet's fur,
 * pose, head tilt, accessory and backdrop chosen from its key, so the same pet always gets the same picture and
 * two pets of one kind look different. Our own drawings (CC0), 800×600 PNG.
 */

/** The coat a caller may ask for, per pet type (the rest still follows the key). */
export type CoatOf = {
  Dog: DogCoat;
  Cat: CatCoat;
  Bird: BirdPlumage;
  Rabbit: RabbitCoat;
  Hamster: HamsterCoat;
  Other: TurtleShell;
};

/** The coats each pet type is drawn in. */
export const COATS: { [T in PetType]: readonly CoatOf[T][] } = {
  Dog: Object.keys(DOG_COATS) as DogCoat[],
  Cat: Object.keys(CAT_COATS) as CatCoat[],
  Bird: Object.keys(BIRD_PLUMAGES) as BirdPlumage[],
  Rabbit: Object.keys(RABBIT_COATS) as RabbitCoat[],
  Hamster: Object.keys(HAMSTER_COATS) as HamsterCoat[],
  Other: Object.keys(TURTLE_SHELLS) as TurtleShell[],
};

/** The animal placed on the canvas: its centre on the ground line, scaled. */
const place = (svg: string, scale: number, x = 400, y = GROUND) =>
  `<g transform="translate(${x} ${y}) scale(${scale})">${svg}</g>`;

const DRAW: { [T in PetType]: (rng: Rng, coat?: CoatOf[T]) => string } = {
  Dog: (rng, coat) => {
    const look = dogLook(rng, coat);
    const indoors = rng.chance(0.5);
    return backdrop(indoors ? 'room' : 'garden', rng) + place(shadow(0, 0, 160) + dog(look), 1.12);
  },
  Cat: (rng, coat) => {
    const look = catLook(rng, coat);
    const indoors = rng.chance(0.6);
    const seat = indoors
      ? cushion(400, GROUND - 4, 190, rng.pick(['#e76f51', '#457b9d', '#e9c46a', '#9b5de5']))
      : '';
    return (
      backdrop(indoors ? 'room' : 'garden', rng, { rug: false }) +
      seat +
      place(shadow(0, 0, 150) + cat(look), 1.12)
    );
  },
  Rabbit: (rng, coat) =>
    backdrop('meadow', rng) + place(shadow(0, 0, 150) + rabbit(rabbitLook(rng, coat)), 1.1),
  Hamster: (rng, coat) => {
    const look = hamsterLook(rng, coat);
    const indoors = rng.chance(0.5);
    return backdrop(indoors ? 'room' : 'meadow', rng) + place(shadow(0, 0, 150) + hamster(look), 1.1);
  },
  Bird: (rng, coat) => backdrop('sky', rng) + place(bird(birdLook(rng, coat)), 1.1, 400, 440),
  Other: (rng, coat) =>
    backdrop('meadow', rng) + place(shadow(20, 0, 230) + turtle(turtleLook(rng, coat)), 1.15, 360, 490),
};

/** The SVG of a pet of `petType` whose picture is chosen by `key` (e.g. its name or id). */
export function petDrawing<T extends PetType>(petType: T, key: string, coat?: CoatOf[T]): string {
  if (coat !== undefined && !COATS[petType].includes(coat))
    throw new Error(`no ${coat} coat for a ${petType}`);
  return canvas(DRAW[petType](rngOf(`${petType}:${key}`), coat));
}

/** The pet's drawing as an 800×600 PNG. */
export const petPicture = <T extends PetType>(petType: T, key: string, coat?: CoatOf[T]) =>
  rasterize(petDrawing(petType, key, coat));
