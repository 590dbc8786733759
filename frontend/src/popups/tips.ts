/** The pet-care and adoption tips the popups choose from (two per session). */
export type Tip = {
  id: string;
  title: string;
  text: string;
  /** A page where the tip can be acted on. */
  link?: { to: string; label: string };
};

export const TIPS: readonly Tip[] = [
  {
    id: 'settle-in',
    title: 'Give a new pet time to settle',
    text: 'A newly adopted pet may hide or eat little at first. A quiet corner, a steady routine and lots of patience help them feel safe in their new home.',
  },
  {
    id: 'summer-heat',
    title: 'Keep pets cool in the heat',
    text: 'Leave fresh water and shade within reach, and walk dogs in the early morning or evening: hot pavement can burn their paws.',
  },
  {
    id: 'id-tag',
    title: 'A tag brings lost pets home',
    text: 'A collar tag with your phone number, and a microchip, help a lost pet find its way back to you. Keep the details up to date.',
  },
  {
    id: 'vet-visit',
    title: 'Book a first vet visit',
    text: 'Ask a vet about vaccinations, deworming and a check-up within the first weeks after adoption.',
    link: { to: '/clinics', label: 'Find a vet clinic' },
  },
  {
    id: 'meet-first',
    title: 'Meet before you adopt',
    text: 'Meet the pet, ask about their habits and health, and make sure everyone at home is ready. You can chat with the owner from any adoption ad.',
    link: { to: '/adoption', label: 'Browse pets' },
  },
  {
    id: 'unsafe-foods',
    title: 'Some foods are unsafe for pets',
    text: 'Chocolate, grapes, raisins, onions, garlic and the sweetener xylitol can make dogs and cats seriously ill. Keep them out of reach.',
  },
];
