import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { adoptionStream, DEFAULT_BREED, type PetDetails, emailClaimStream } from '@pawhaven/contracts';
import { handleCommand, type EventStore } from '@pawhaven/platform';
import { claimOwner } from '../accounts/claims';
import { petPicture, type CoatOf } from '../images/illustrations';
import { withStagedImage } from '../images/image-store';
import { adoptionAdDecider, type AdoptionCommand } from './adoption-ad';

export type DemoAd = Omit<PetDetails, 'imageUrl' | 'breed' | 'ageUnit'> & {
  owner: string;
  breed?: string;
  ageUnit?: PetDetails['ageUnit'];
  /** The drawn coat, as the description tells it (pose, backdrop and accessory follow the name). */
  coat: CoatOf[PetDetails['petType']];
};

const none = {
  gender: null,
  size: null,
  vaccinated: null,
  spayedNeutered: null,
  goodWithChildren: null,
  goodWithDogs: null,
  goodWithCats: null,
};

/** The demo's ads (the browser tests read them to know what the cards should show). */
export const DEMO_ADS: readonly DemoAd[] = [
  {
    ...none,
    owner: 'bilal.rescue@gmail.com',
    name: 'Moti',
    age: '2',
    petType: 'Dog',
    breed: 'Labrador mix',
    gender: 'Male',
    size: 'Large',
    vaccinated: true,
    goodWithChildren: true,
    location: 'Lahore',
    description:
      'Moti was found near the canal as a puppy. He is house-trained, loves long walks and is gentle with children. Looking for a family with a little outdoor space.',
    coat: 'golden',
  },
  {
    ...none,
    owner: 'bilal.rescue@gmail.com',
    name: 'Billo',
    age: '8',
    ageUnit: 'months',
    petType: 'Cat',
    breed: 'Persian mix',
    gender: 'Female',
    size: 'Small',
    vaccinated: true,
    spayedNeutered: true,
    goodWithCats: true,
    location: 'Karachi',
    description:
      'A calm, fluffy girl who enjoys sunny windowsills and gentle brushing. Litter-trained and spayed.',
    coat: 'fluffy white',
  },
  {
    ...none,
    owner: 'ayesha.vet@gmail.com',
    name: 'Sheru',
    age: '4',
    petType: 'Dog',
    breed: 'German Shepherd',
    gender: 'Male',
    size: 'Large',
    vaccinated: true,
    spayedNeutered: true,
    goodWithDogs: true,
    location: 'Islamabad',
    description:
      'Sheru is a loyal, well-mannered shepherd whose family moved abroad. Knows sit, stay and heel; needs daily exercise and an experienced owner.',
    coat: 'black and tan',
  },
  {
    ...none,
    owner: 'ayesha.vet@gmail.com',
    name: 'Mithu',
    age: '1',
    petType: 'Bird',
    breed: 'Rose-ringed parakeet',
    location: 'Lahore',
    description: 'A chatty parakeet who already says "salaam". Comes with his cage and a month of seed.',
    coat: 'green',
  },
  {
    ...none,
    owner: 'bilal.rescue@gmail.com',
    name: 'Snowy',
    age: '6',
    ageUnit: 'months',
    petType: 'Rabbit',
    gender: 'Female',
    size: 'Small',
    location: 'Peshawar',
    description: 'Snowy is a curious white rabbit who loves carrots and coriander. Best in a calm home.',
    coat: 'white',
  },
  {
    ...none,
    owner: 'ayesha.vet@gmail.com',
    name: 'Cookie',
    age: '3',
    petType: 'Cat',
    gender: 'Male',
    size: 'Medium',
    vaccinated: true,
    spayedNeutered: true,
    goodWithChildren: true,
    goodWithCats: true,
    location: 'Lahore',
    description:
      'Cookie is a playful tabby who gets along with everyone, including other cats. Fully vaccinated and neutered.',
    coat: 'tabby',
  },
];

/** A demo ad's picture: its kind of pet in its coat, the rest chosen by its name. */
export const demoAdPicture = (ad: DemoAd) => petPicture(ad.petType, ad.name, ad.coat);

/**
 * Demo adoption ads of the demo accounts, published through the same commands as the app, plus one pending request
 * (Sana asks for Moti) so 'My Adoptions' has something to answer. Only on the embedded first start.
 */
export async function seedDemoAds(store: EventStore, knex: Knex): Promise<number> {
  const idOf = (email: string) => claimOwner(store, emailClaimStream(email));
  const run = (adId: string, command: AdoptionCommand, actorId: string) =>
    handleCommand(store, adoptionStream(adId), adoptionAdDecider, command, { actorId });
  let published = 0;
  let moti: string | null = null;
  for (const ad of DEMO_ADS) {
    const { owner, coat: _coat, ...pet } = ad;
    const ownerId = await idOf(owner);
    if (!ownerId) continue;
    const adId = randomUUID();
    const kind = {
      maxBytes: 5 * 1024 * 1024,
      width: 1200,
      height: 1200,
      fit: 'inside',
      tooLarge: 'too large',
      invalid: 'invalid',
    } as const;
    const bytes = await demoAdPicture(ad);
    await withStagedImage(knex, { bytes, kind, streamId: adoptionStream(adId) }, (imageUrl) => {
      const details: PetDetails = {
        ...pet,
        breed: pet.breed ?? DEFAULT_BREED,
        ageUnit: pet.ageUnit ?? 'yrs',
        imageUrl,
      };
      return run(adId, { type: 'PublishAd', data: { adId, ownerId, details, now: new Date() } }, ownerId);
    });
    if (pet.name === 'Moti') moti = adId;
    published++;
  }
  const sana = await idOf('sana.adopts@gmail.com');
  if (moti && sana)
    await run(
      moti,
      {
        type: 'RequestAdoption',
        data: {
          requestId: randomUUID(),
          requesterId: sana,
          name: 'Sana Malik',
          email: 'sana.adopts@gmail.com',
          phone: '+92 333 5551234',
          message:
            'We have a walled garden in Islamabad and I work from home. I would love to meet Moti this weekend.',
          petHistoryImage: null,
          now: new Date(),
        },
      },
      sana,
    );
  return published;
}
