import { describe, expect, it } from 'vitest';
import { registerBody, usernameField, usernameFromGoogle, USERNAME_MESSAGES } from './accounts';

const problem = (username: string) => {
  const parsed = usernameField.safeParse(username);
  return parsed.success ? null : parsed.error.issues[0]!.message;
};

describe('usernames', () => {
  it('need a letter or a digit', () => {
    for (const name of ['...', '. .', '-', '_', '._-'])
      expect(problem(name), name).toBe(USERNAME_MESSAGES.letterOrDigit);
    for (const name of ['a.', '.7', 'Zoë', 'علی', 'Ali_Khan']) expect(problem(name), name).toBeNull();
  });

  it('keep their other rules and messages', () => {
    expect(problem('   ')).toBe('Username is required');
    expect(problem('a'.repeat(31))).toBe(USERNAME_MESSAGES.tooLong);
    expect(problem('ali!')).toBe(USERNAME_MESSAGES.characters);
    expect(registerBody.shape.username).toBe(usernameField);
  });
});

describe("a Google sign-up's suggested username", () => {
  it("is Google's name as far as it is a valid username", () => {
    expect(usernameFromGoogle("Zoë O'Brien", 'zoe@gmail.com')).toBe('Zoë OBrien');
    expect(usernameFromGoogle('  Ayesha   Khan ', 'a@gmail.com')).toBe('Ayesha Khan');
    expect(usernameFromGoogle('Ａｄｍｉｎ', 'a@gmail.com')).toBe('Admin');
  });

  it("falls back to the address's local part, then to 'PawHaven user'", () => {
    expect(usernameFromGoogle('...', 'moti.khan@gmail.com')).toBe('moti.khan');
    expect(usernameFromGoogle('🐾', 'x+y@gmail.com')).toBe('xy');
    expect(usernameFromGoogle('...', '..@gmail.com')).toBe('PawHaven user');
  });

  it('is never longer than allowed and always passes the rules', () => {
    for (const [name, email] of [
      ['A'.repeat(29) + ' B', 'a@gmail.com'],
      ['.'.repeat(40), 'b@gmail.com'],
      ['', ''],
    ] as const)
      expect(problem(usernameFromGoogle(name, email)), name).toBeNull();
  });
});
