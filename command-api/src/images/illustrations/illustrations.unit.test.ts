import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PET_TYPES } from '@pawhaven/contracts';
import { COATS, petDrawing, petPicture } from './index';
import { POST_SCENES, postPicture } from './posts';

/** The drawn demo pictures: one animal per pet type, a picture per pet chosen by its key, no text on them. */

const pixels = (png: Buffer) => sharp(png).raw().toBuffer();

describe.each(PET_TYPES)('a drawn %s', (petType) => {
  it('is an 800×600 PNG', async () => {
    const meta = await sharp(await petPicture(petType, 'Moti')).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'png',
      width: 800,
      height: 600,
    });
  });

  it('differs between two pets and is the same for one pet every time', async () => {
    const [a, b, again] = await Promise.all([
      petPicture(petType, 'Moti'),
      petPicture(petType, 'Sheru'),
      petPicture(petType, 'Moti'),
    ]);
    expect((await pixels(a)).equals(await pixels(b))).toBe(false);
    expect(a.equals(again)).toBe(true);
  });

  it('is drawn in every coat of its kind, and refuses a coat of another kind', () => {
    for (const coat of COATS[petType]) expect(petDrawing(petType, 'Moti', coat)).toContain('<svg');
    const foreign = petType === 'Dog' ? 'fluffy white' : 'black and tan';
    expect(() => petDrawing(petType, 'Moti', foreign as never)).toThrow(
      `no ${foreign} coat for a ${petType}`,
    );
  });

  it('carries no text: the animal is the picture', () => {
    expect(petDrawing(petType, 'Moti')).not.toMatch(/<text/);
  });
});

describe('a post scene', () => {
  it.each(POST_SCENES)('%s is an 800×600 PNG, the same for one key', async (scene) => {
    const png = await postPicture(scene, 'a caption');
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 800, 600]);
    expect(png.equals(await postPicture(scene, 'a caption'))).toBe(true);
  });

  it('is a different picture for each scene', async () => {
    const all = await Promise.all(POST_SCENES.map((s) => postPicture(s, 'a caption')));
    expect(new Set(all.map((b) => b.toString('base64'))).size).toBe(POST_SCENES.length);
  });
});
