import { describe, expect, it } from 'vitest';
import { CHAT_MESSAGES } from '@pawhaven/contracts';
import { ME } from './chat.fixture';
import { userIdProblem, messageTextProblem, adIdParam } from './format';
import { newClientMessageId } from './merge';

describe('input rules', () => {
  it('needs trimmed text within the limit', () => {
    expect(messageTextProblem('   ')).toBe(CHAT_MESSAGES.textRequired);
    expect(messageTextProblem(' hi ')).toBeNull();
    expect(messageTextProblem('x'.repeat(2001))).toBe(CHAT_MESSAGES.textTooLong);
  });

  it('makes UUID v4 client ids and passes only UUID ad ids', () => {
    const id = newClientMessageId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newClientMessageId()).not.toBe(id);
    expect(adIdParam(id)).toBe(id);
    expect(adIdParam('not-an-id')).toBeNull();
    expect(adIdParam(null)).toBeNull();
  });

  it('refuses unusable user ids', () => {
    expect(userIdProblem(null)).toBeNull();
    expect(userIdProblem({ id: '', _id: '' })).toBe(CHAT_MESSAGES.userIncomplete);
    expect(userIdProblem({ id: 'short', _id: 'short' })).toBe(CHAT_MESSAGES.invalidUserId);
    expect(userIdProblem({ id: ME, _id: ME })).toBeNull();
  });
});
