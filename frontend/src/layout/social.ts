import type { SocialAccounts } from '@pawhaven/contracts';

export type SocialNetwork = keyof SocialAccounts;

/** The footer's networks, in their order, with the names the icons are labelled by. */
const NETWORKS: { network: SocialNetwork; label: string }[] = [
  { network: 'facebook', label: 'PawHaven on Facebook' },
  { network: 'instagram', label: 'PawHaven on Instagram' },
  { network: 'x', label: 'PawHaven on X' },
  { network: 'youtube', label: 'PawHaven on YouTube' },
];

/**
 * The footer's social links: one per network whose account is configured (the settings SOCIAL_…_URL, https only,
 * read from /api/config); none while the settings are unknown or unset.
 */
export function socialLinks(social: SocialAccounts | null | undefined) {
  return NETWORKS.flatMap(({ network, label }) => {
    const href = social?.[network];
    return href && href.startsWith('https://') ? [{ network, label, href }] : [];
  });
}
