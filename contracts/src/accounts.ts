import { z } from 'zod';

/** Limits and timings of the accounts capability. */
export const ACCOUNT_LIMITS = {
  passwordMinLength: 8,
  otpSeconds: 120,
  /**
   * How long a sign-up by password waits for its e-mail to be verified. Its username is held for that long (a
   * few minutes more, see command-api claims.ts); after it the sign-up lapses and the username is free again.
   */
  registrationSeconds: 60 * 60,
  resetCodeSeconds: 10 * 60,
  codeMaxAttempts: 5,
  profileImageMaxBytes: 5 * 1024 * 1024,
  resendNoticeMs: 5000,
  redirectAfterVerifyMs: 2000,
  toastMs: 3500,
  usernameMaxLength: 30,
  aboutMaxLength: 1000,
  cityMaxLength: 80,
} as const;

/** User-visible texts, worded exactly as the product shows them. */
export const ACCOUNT_MESSAGES = {
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  usernameRequired: 'Username is required',
  passwordMeetsAll: 'Password meets all requirements',
  codeRequired: 'Please enter the verification code.',
  emailRequiredForResend: 'Email is required to resend OTP',
  invalidCredentials: 'Invalid email or password',
  imageInvalid: 'Please select a valid image file',
  imageTooLarge: 'Image size should be less than 5MB',
  passwordsDoNotMatch: 'New passwords do not match',
  registered: 'Registration successful! Check your email for the verification code.',
  verified: 'Email verified successfully! Redirecting to sign in...',
  otpResent: 'New OTP sent successfully! Check your email.',
  /** Said whether or not the address has an account (the answer must not tell). */
  resetCodeSent: 'If an account uses this email, a verification code is on its way. Check your email.',
  resetCodeResent: 'Verification code resent! Check your email.',
  resetCodeVerified: 'Code verified. You can now choose a new password.',
  passwordReset: 'Password reset successfully! You can now sign in.',
  passwordChanged: 'Password changed successfully!',
  profileUpdated: 'Profile updated successfully!',
  imageUploaded: 'Profile image uploaded successfully!',
  imageRemoved: 'Profile image removed successfully!',
  signedOut: 'Signed out successfully!',
  emailNotVerified: 'Please verify your email before signing in. A new code has been sent.',
  /** Only a sign-up racing the address's verification hears it: the route answers a taken address like a new one. */
  emailTaken: 'An account with this email already exists',
  usernameTaken: 'This username is already taken',
  codeInvalid: 'Invalid verification code',
  codeExpired: 'The verification code has expired. Please request a new one.',
  codeAttemptsExceeded: 'Too many wrong attempts. Please request a new code.',
  noPendingVerification: 'No pending verification for this email',
  /** The code was asked for with a registration token of an earlier sign-up of this address. */
  registrationReplaced:
    'This sign-up was replaced by a newer sign-up for this email. Please sign up again to get a new code.',
  /** No registration token: this browser did not make the sign-up (or lost it). Signing in hands out a new one. */
  registrationTokenMissing:
    'Please sign in with the password you chose to verify your email in this browser.',
  registrationExpired: 'This sign-up has expired. Please sign up again.',
  alreadyVerified: 'This email is already verified. Please sign in.',
  currentPasswordWrong: 'Current password is incorrect',
  googleNotConfigured: 'Google sign-in is not available',
  googleFailed: 'Google login failed',
} as const;

const PASSWORD_RULES = [
  { label: 'At least 8 characters', test: (p: string) => p.length >= ACCOUNT_LIMITS.passwordMinLength },
  { label: 'One uppercase letter', test: (p: string) => /[A-Z]/.test(p) },
  { label: 'One lowercase letter', test: (p: string) => /[a-z]/.test(p) },
  { label: 'One number', test: (p: string) => /[0-9]/.test(p) },
  { label: 'One special character', test: (p: string) => /[^A-Za-z0-9]/.test(p) },
] as const;

/** The labels of the password requirements not yet met, in the order the form lists them. */
export const missingPasswordRequirements = (password: string): string[] =>
  PASSWORD_RULES.filter((r) => !r.test(password)).map((r) => r.label);

/** null when the password is acceptable, otherwise the 'Password must have: …' text. */
export function passwordProblem(password: string): string | null {
  if (!password) return ACCOUNT_MESSAGES.passwordRequired;
  const missing = missingPasswordRequirements(password);
  return missing.length === 0 ? null : `Password must have: ${missing.join(', ')}`;
}

/** The accepted domain is named by its provider ('Gmail' for gmail.com); other domains are named as they are. */
export const domainLabel = (domain: string) => (domain.toLowerCase() === 'gmail.com' ? 'Gmail' : domain);
export const invalidDomainEmailMessage = (domain: string) =>
  `Please enter a valid ${domainLabel(domain)} address`;
export const invalidResetEmailMessage = (domain: string) =>
  `Please enter a valid ${domainLabel(domain)} address to reset password.`;

/** A single address of the accepted domain: local part of letters, digits and . _ % + - */
export function isAcceptedEmail(email: string, domain: string): boolean {
  const escaped = domain.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^[a-z0-9._%+-]+@${escaped}$`).test(email.trim().toLowerCase());
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const trimmed = (required: string) => z.string({ error: required }).trim().min(1, required);

/** What a username may hold, and what it must: a name of dots, dashes or spaces alone names nobody. */
const USERNAME_CHARACTERS = /^[\p{L}\p{N} ._-]+$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
export const USERNAME_MESSAGES = {
  tooLong: `Username must be at most ${ACCOUNT_LIMITS.usernameMaxLength} characters`,
  characters: 'Username may contain letters, numbers, spaces, dots, dashes and underscores',
  letterOrDigit: 'Username must contain at least one letter or number',
} as const;

/** A username as typed at sign-up or confirmed at a Google sign-up (trimmed). */
export const usernameField = trimmed(ACCOUNT_MESSAGES.usernameRequired)
  .max(ACCOUNT_LIMITS.usernameMaxLength, USERNAME_MESSAGES.tooLong)
  .regex(USERNAME_CHARACTERS, USERNAME_MESSAGES.characters)
  .regex(LETTER_OR_DIGIT, USERNAME_MESSAGES.letterOrDigit);

/** What is left of `text` as a username: allowed characters only, spaces collapsed, cut to the limit. */
const asUsername = (text: string) =>
  text
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} ._-]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, ACCOUNT_LIMITS.usernameMaxLength)
    .trim();

/**
 * The username a Google sign-up starts with: Google's display name as far as it is a valid username ("Zoë O'Brien"
 * → "Zoë OBrien"), else the e-mail's local part, else 'PawHaven user'. Always passes `usernameField`.
 */
export function usernameFromGoogle(name: string, email: string): string {
  for (const candidate of [asUsername(name), asUsername(email.split('@')[0] ?? '')])
    if (usernameField.safeParse(candidate).success) return candidate;
  return 'PawHaven user';
}

/** Request bodies of the auth root; the server adds the domain rule (it is a setting). */
export const registerBody = z.object({
  username: usernameField,
  email: trimmed(ACCOUNT_MESSAGES.emailRequired),
  password: z.string({ error: ACCOUNT_MESSAGES.passwordRequired }).min(1, ACCOUNT_MESSAGES.passwordRequired),
  isVeterinarian: z.boolean().default(false),
});
export const signinBody = z.object({
  email: trimmed('Email and password are required'),
  password: z.string({ error: 'Email and password are required' }).min(1, 'Email and password are required'),
  rememberMe: z.boolean().default(false),
});
/**
 * The secret `/register` answers (and a sign-in of the pending account): the code in the mail verifies only the
 * sign-up whose token the caller holds, so nobody can verify an address into a password someone else chose.
 */
const registrationToken = z.string().trim().max(200).optional();
export const verifyRegistrationBody = z.object({
  email: trimmed(ACCOUNT_MESSAGES.emailRequired),
  otp: trimmed(ACCOUNT_MESSAGES.codeRequired),
  registrationToken,
});
export const resendOtpBody = z.object({
  email: trimmed(ACCOUNT_MESSAGES.emailRequiredForResend),
  registrationToken,
});
export const forgotPasswordBody = z.object({ email: trimmed(ACCOUNT_MESSAGES.emailRequired) });
export const verifyResetCodeBody = z.object({
  email: trimmed(ACCOUNT_MESSAGES.emailRequired),
  code: trimmed(ACCOUNT_MESSAGES.codeRequired),
});
export const resetPasswordBody = verifyResetCodeBody.extend({
  newPassword: z
    .string({ error: ACCOUNT_MESSAGES.passwordRequired })
    .min(1, ACCOUNT_MESSAGES.passwordRequired),
});
export const changePasswordBody = z.object({
  id: z.string().optional(),
  currentPassword: trimmed('All password fields are required'),
  newPassword: z
    .string({ error: 'All password fields are required' })
    .min(1, 'All password fields are required'),
});
export const updateProfileBody = z.object({
  id: z.string().optional(),
  phone: z
    .string()
    .trim()
    .max(20)
    .refine((v) => v === '' || /^\+?[0-9\s-]{10,}$/.test(v), 'Please enter a valid phone number')
    .optional(),
  city: z.string().trim().max(ACCOUNT_LIMITS.cityMaxLength).optional(),
  about: z
    .string()
    .trim()
    .max(ACCOUNT_LIMITS.aboutMaxLength, `About must be at most ${ACCOUNT_LIMITS.aboutMaxLength} characters`)
    .optional(),
});
export const loginGoogleBody = z.object({ credential: trimmed('Google credential is required') });
export const completeGoogleRegistrationBody = z.object({
  email: trimmed(ACCOUNT_MESSAGES.emailRequired),
  /** The name `/login-google` suggested (`usernameFromGoogle`), under the same rules as a typed one. */
  username: usernameField,
  isVeterinarian: z.boolean().default(false),
  /** The Google ID token again: proof that the caller owns the email. */
  credential: trimmed('Google credential is required'),
});
export const userIdBody = z.object({ id: trimmed('User ID is required') });

export type UserType = 'Veterinarian' | 'Regular User' | 'Admin';

/** The user as every API returns it; `_id` and `id` both carry the id. */
export type UserDto = {
  _id: string;
  id: string;
  username: string;
  email: string;
  phone: string;
  city: string;
  about: string;
  profileImage: string | null;
  isVeterinarian: boolean;
  isAdmin: boolean;
  userType: UserType;
  joinedDate: string;
  lastActive: string | null;
  status: 'online' | 'offline';
};

/** Public profile data: no email or phone for strangers. */
export type PublicUserDto = Omit<UserDto, 'email' | 'phone'>;

export const deriveUserType = (u: { isVeterinarian: boolean; isAdmin: boolean }): UserType =>
  u.isAdmin ? 'Admin' : u.isVeterinarian ? 'Veterinarian' : 'Regular User';

/** `/register`: keep `registrationToken` (sessionStorage) to verify this sign-up with the mailed code. */
export type RegisterResponse = {
  email: string;
  message: string;
  registrationToken: string;
  position: string;
};
/** A sign-in with the right password of an unverified account (403): a new code is mailed and a new token given. */
export type PendingSignInResponse = {
  message: string;
  error: string;
  needsVerification: true;
  email: string;
  registrationToken: string;
};

export type AuthResponse = { token: string; user: UserDto; message?: string; position?: string };
/** PawHaven's accounts on social networks (https addresses); null where none is configured. */
export type SocialAccounts = {
  facebook: string | null;
  instagram: string | null;
  x: string | null;
  youtube: string | null;
};
export type PublicConfig = {
  acceptedEmailDomain: string;
  googleClientId: string | null;
  otpSeconds: number;
  social: SocialAccounts;
};
