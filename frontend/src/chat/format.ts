import { CHAT_LIMITS, CHAT_MESSAGES, isUuid, type UserDto } from '@pawhaven/contracts';
import { userIdOf } from '../shared/user-id';

/** The signed-in user's id and the input rules of the chat: a usable user id, a message's text, an ad id from the URL. */

/** Why the signed-in user cannot chat (no id, or one too short), or null when the id is usable. */
export function userIdProblem(user: Pick<UserDto, 'id' | '_id'> | null | undefined): string | null {
  if (!user) return null;
  const id = userIdOf(user);
  if (!id) return CHAT_MESSAGES.userIncomplete;
  if (id.length < CHAT_LIMITS.minUserIdLength) return CHAT_MESSAGES.invalidUserId;
  return null;
}

/** A chat message must have text once trimmed, and at most `CHAT_LIMITS.messageMaxLength` characters of it. */
export function messageTextProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return CHAT_MESSAGES.textRequired;
  if (trimmed.length > CHAT_LIMITS.messageMaxLength) return CHAT_MESSAGES.textTooLong;
  return null;
}

/** `?adId=` is passed on only when it can be an ad id (the server refuses anything else). */
export const adIdParam = (value: string | null | undefined) =>
  value && isUuid(value.trim()) ? value.trim() : null;
