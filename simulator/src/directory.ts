import { clinicStream, faqStream, ngoStream, teamMemberStream } from '@pawhaven/contracts';
import { seedId } from '@pawhaven/command-api';
import { FIRST_NAMES, LAST_NAMES } from './texts';
import { type World } from './world';

/** The seed content appended on the first start: NGOs, clinics, the FAQ and the team. */

export function seedDirectory(w: World): void {
  const at = w.iso();
  const entry = (kind: string, file: string, key: string, stream: string, type: string, data: object) =>
    w.emit(
      stream,
      [
        {
          eventId: seedId(`${kind}:${key}:event`),
          type,
          data,
          metadata: { actorId: 'system', source: `data/seed/${file}`, seedKey: key },
        },
      ],
      -1,
      [],
    );
  const ngos = [
    ['canal-paws-lahore', 'Canal Paws Collective', 'Lahore'],
    ['karachi-strays-trust', 'Karachi Strays Trust', 'Karachi'],
    ['margalla-animal-rescue', 'Margalla Animal Rescue', 'Islamabad'],
    ['multan-kindness-society', 'Multan Kindness Society', 'Multan'],
  ] as const;
  ngos.forEach(([key, name, city], order) => {
    const ngoId = seedId(`ngos:${key}`);
    entry('ngos', 'ngos.json', key, ngoStream(ngoId), 'NgoListed', {
      ngoId,
      name,
      description: `A volunteer network in ${city} that rescues injured and abandoned dogs and cats and finds them loving homes.`,
      contact: { phone: `+92 300 00000${order + 1}`, email: `hello@${key}.example.org` },
      image: '/media/directory/ngo-paw.svg',
      mission: `No animal in ${city} should suffer on the street without help.`,
      services: [
        'Street animal rescue',
        'Emergency first aid',
        'Adoption and rehoming',
        'Vaccination drives',
      ],
      order,
      listedAt: at,
    });
  });
  const clinics = [
    ['green-valley-lahore', 'Green Valley Pet Clinic', 'Model Town, Lahore'],
    ['seaside-vets-karachi', 'Seaside Veterinary Hospital', 'Clifton, Karachi'],
    ['capital-pet-care', 'Capital Pet Care', 'F-10, Islamabad'],
    ['peshawar-animal-clinic', 'Peshawar Animal Clinic', 'Hayatabad, Peshawar'],
  ] as const;
  clinics.forEach(([key, name, location], order) => {
    const clinicId = seedId(`clinics:${key}`);
    entry('clinics', 'clinics.json', key, clinicStream(clinicId), 'ClinicListed', {
      clinicId,
      name,
      location,
      image: '/media/directory/clinic-cross.svg',
      veterinarians: [
        {
          name: `Dr. ${w.rng.pick(FIRST_NAMES)} ${w.rng.pick(LAST_NAMES)}`,
          specialization: 'Small animal medicine',
        },
        {
          name: `Dr. ${w.rng.pick(FIRST_NAMES)} ${w.rng.pick(LAST_NAMES)}`,
          specialization: 'Soft tissue surgery',
        },
      ],
      servicesOffered: ['Vaccinations', 'General check-ups', 'Spay and neuter', 'Dental care'],
      contact: {
        phone: `+92 300 0000${101 + order}`,
        email: order % 2 === 0 ? `appointments@${key}.example.org` : null,
      },
      order,
      listedAt: at,
    });
  });
  const faqs = [
    [
      'how-to-adopt',
      'How do I adopt a pet on PawHaven?',
      'Open Adoption, choose a pet and press Request Adoption.',
    ],
    ['is-it-free', 'Does adopting cost anything?', 'No. PawHaven never charges for adoptions.'],
    [
      'post-an-ad',
      'How do I find a home for a pet?',
      'Sign in, open Adoption and publish an ad with a photo.',
    ],
    [
      'injured-animal',
      'I found an injured animal. What now?',
      'Call an NGO or clinic from our directory near you.',
    ],
    ['vets-badge', 'What does the vet badge mean?', 'The account belongs to a veterinarian.'],
  ] as const;
  faqs.forEach(([key, question, answer], order) => {
    const faqId = seedId(`faq:${key}`);
    entry('faq', 'faq.json', key, faqStream(faqId), 'FaqPublished', {
      faqId,
      question,
      answer,
      order,
      publishedAt: at,
    });
  });
  const team = [
    ['hira-qureshi', 'Hira Qureshi', 'Community Ambassador, Lahore'],
    ['usman-baig', 'Usman Baig', 'Rescue Coordinator, Karachi'],
    ['dr-amna-rauf', 'Dr. Amna Rauf', 'Veterinary Advisor'],
  ] as const;
  team.forEach(([key, name, role], order) => {
    const memberId = seedId(`team:${key}`);
    entry('team', 'team.json', key, teamMemberStream(memberId), 'TeamMemberAdded', {
      memberId,
      name,
      role,
      image: '/media/directory/member-teal.svg',
      summary: `${name} helps new adopters settle in with their pets.`,
      details: {
        education: ['BSc Zoology'],
        experience: ['Years of volunteering with street animal rescues'],
        achievements: ['Over 100 successful adoptions'],
        facilities: ['Transport to vet appointments'],
      },
      contact: {
        phone: `+92 300 0000${201 + order}`,
        email: `${key}@team.example.org`,
        website: `https://example.org/team/${key}`,
        location: 'Pakistan',
      },
      order,
      addedAt: at,
    });
  });
}
