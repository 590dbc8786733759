import {
  ACCOUNT_MESSAGES,
  invalidDomainEmailMessage,
  isAcceptedEmail,
  passwordProblem,
} from '@pawhaven/contracts';

/**
 * Field checks of the account forms, composed from the shared contract rules (the server applies the same).
 * The domain is the server's setting; before the config arrives only the required check runs.
 */
export function signupEmailProblem(email: string, domain: string | undefined): string | null {
  if (!email.trim()) return ACCOUNT_MESSAGES.emailRequired;
  if (domain && !isAcceptedEmail(email, domain)) return invalidDomainEmailMessage(domain);
  return null;
}

/** Live password feedback: the error text, or null when every requirement is met. */
export const newPasswordProblem = (password: string) => passwordProblem(password);

export const PASSWORD_OK = ACCOUNT_MESSAGES.passwordMeetsAll;
