/**
 * The texts of the directory and FAQ pages. The page titles, the no-match texts, the details buttons and the FAQ
 * error are the product's fixed wording; the loading and list-failure texts were added by us.
 */
export const DIRECTORY_MESSAGES = {
  faqTitle: 'Frequently Asked Questions',
  /** The FAQ failure, shown as `Error: ${faqFailed}` (faqError). */
  faqFailed: 'Failed to fetch FAQs',
  faqError: 'Error: Failed to fetch FAQs',
  faqEmpty: 'No questions have been added yet.',

  ngoTitle: "Animal Welfare NGO's",
  ngoDetailsButton: 'View NGO Details',
  ngoNoMatch: 'No NGOs found. Please try a different search.',
  ngoEmpty: 'No NGOs are listed yet.',
  ngoFailed: 'Failed to load NGOs. Please try again.',

  clinicsTitle: 'Veterinary Clinics & Healthcare',
  clinicDetailsButton: 'View Clinic Details',
  clinicNoMatch: 'No clinics found. Please try a different search.',
  clinicEmpty: 'No clinics are listed yet.',
  clinicFailed: 'Failed to load clinics. Please try again.',
} as const;

/** The longest search term the directory endpoints accept (`directorySearchQuery`). */
export const DIRECTORY_SEARCH_MAX = 200;
