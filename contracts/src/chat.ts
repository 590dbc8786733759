import { z } from 'zod';

export const CHAT_LIMITS = {
  /** A chat message is a message, not a document: long enough for a story, short enough for a push. */
  messageMaxLength: 2000,
  /** Messages per page of GET /api/messages/{conversationId}; the newest page comes first. */
  messagesPageDefault: 50,
  messagesPageMax: 100,
  /** The conversation list's preview of the last message is cut at this many characters. */
  previewLength: 35,
  /** Unread badge shows '9+' above this. */
  unreadBadgeMax: 9,
  typingIndicatorMs: 3000,
  /** Consecutive messages of one sender this close together (and on one day) share one bubble group and time. */
  messageGroupWindowMs: 5 * 60_000,
  inputMaxHeightPx: 150,
  mobileBreakpointPx: 1024,
  /** Chat socket: 5 reconnection attempts, 1 s to 5 s apart, 20 s connect timeout. */
  socketReconnectionAttempts: 5,
  socketReconnectionDelayMs: 1000,
  socketReconnectionDelayMaxMs: 5000,
  socketTimeoutMs: 20_000,
  healthTimeoutMs: 5000,
  /** The conversation list stops loading (and shows an empty list) after 10 s. */
  listTimeoutMs: 10_000,
  /** A signed-in user's id shorter than this is refused before anything loads. */
  minUserIdLength: 10,
  /** Chat toasts last 3 s. */
  toastMs: 3000,
} as const;

/** Every user-visible text of the chat pages and the server's refusals. */
export const CHAT_MESSAGES = {
  signInRequired: 'You need to sign in to access chat',
  loading: 'Loading your messages...',
  loadingConversation: 'Loading conversation...',
  errorTitle: 'Error loading chat',
  tryAgain: 'Try Again',
  emptyTitle: 'Start a Conversation',
  emptyText: 'Select a chat from your conversations or create a new one to begin messaging',
  viewConversations: 'View Conversations',
  messagesTitle: 'Messages',
  searchPlaceholder: 'Search conversations...',
  placeholderLastMessage: 'Start a conversation...',
  cannotConnect: 'Cannot connect to chat server',
  socketFailed: 'Failed to initialize chat connection',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  rateLimitedTitle: 'Rate Limited',
  loadUsersFailed: 'Failed to load users',
  errorToastTitle: 'Error',
  signIn: 'Sign In',
  invalidUserId: 'Invalid user ID format. Please log in again.',
  userIncomplete: 'User data is incomplete. Please log in again.',
  online: 'online',
  offline: 'offline',
  loadOlder: 'Load older messages',
  inputPlaceholder: 'Type a message...',
  noConversations: 'No conversations yet',
  noSearchResults: 'No conversations match your search',
  sendFailed: 'Failed to send message',
  messagesLoadFailed: 'Messages could not be loaded.',
  // Server refusals
  textRequired: 'Message cannot be empty',
  textTooLong: `Message must be at most ${CHAT_LIMITS.messageMaxLength} characters`,
  notYourself: 'You cannot start a conversation with yourself',
  notMember: 'You are not a member of this conversation',
  conversationNotFound: 'Conversation not found',
  userNotFound: 'User not found',
  messageNotFound: 'Message not found',
  senderMismatch: 'You can only send messages as yourself',
  onlyOwnConversations: 'You can only see your own conversations',
  joinRefused: 'You can only join your own room',
} as const;

const id = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(200, `${label} is too long`);

/** POST /api/conversations: find or start the conversation of the two users (the sender is the caller). */
export const startConversationBody = z.object({
  senderId: id('senderId'),
  receiverId: id('receiverId'),
  /** Opened from an adoption card: the conversation shows which ad it is about. */
  adId: z.string().trim().uuid('adId must be an ad id').optional(),
});

/** POST /api/messages and the socket's `sendMessage`. */
export const sendMessageBody = z.object({
  conversationId: z
    .string({ error: 'conversationId is required' })
    .trim()
    .uuid('conversationId is not a conversation'),
  senderId: id('senderId').optional(),
  text: z
    .string({ error: CHAT_MESSAGES.textRequired })
    .trim()
    .min(1, CHAT_MESSAGES.textRequired)
    .max(CHAT_LIMITS.messageMaxLength, CHAT_MESSAGES.textTooLong),
  /** The client's id for the message (a UUID): a retried send with the same id answers the same message. */
  clientMessageId: z.string().trim().uuid('clientMessageId must be a UUID').optional(),
  /** The client's clock when it was typed (the client sends it); the server records its own time. */
  timestamp: z.union([z.string(), z.number()]).optional(),
});

/** POST /api/conversations/{id}/delivered and /read: receipts up to a message. */
export const receiptBody = z.object({
  upToMessageId: z
    .string({ error: 'upToMessageId is required' })
    .trim()
    .uuid('upToMessageId is not a message'),
});

export const messagesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(CHAT_LIMITS.messagesPageMax)
    .default(CHAT_LIMITS.messagesPageDefault),
});

export type ChatUserDto = {
  _id: string;
  id: string;
  username: string;
  profileImage: string | null;
  isVeterinarian: boolean;
};

export type MessageStatus = 'sent' | 'delivered' | 'read';

export type MessageDto = {
  _id: string;
  id: string;
  conversationId: string;
  senderId: string;
  text: string;
  clientMessageId: string;
  createdAt: string;
  /** For the sender's ticks: one (sent), two faint (delivered), two (read). */
  status: MessageStatus;
};

export type ConversationDto = {
  _id: string;
  id: string;
  /** Exactly two user ids (a conversation's members, also called participants). */
  members: string[];
  participants: ChatUserDto[];
  startedBy: string;
  /** null until the first message: the client shows the placeholder 'Start a conversation...'. */
  lastMessage: { text: string; senderId: string; createdAt: string } | null;
  updatedAt: string;
  createdAt: string;
  /** Messages from the other member the caller has not read. */
  unreadCount: number;
  /** The adoption ad the chat was opened from, or null. */
  ad: { _id: string; name: string; imageUrl: string | null } | null;
};

export type MessagePage = {
  success: true;
  /** Oldest first within the page; page 1 is the newest page. */
  data: MessageDto[];
  pagination: { page: number; limit: number; total: number; hasMore: boolean };
};

/** A field the client reads leniently: absent, or of another shape, is undefined (the answer still parses). */
const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const filled = z.string().min(1);
/** A user named by id, or as an object with `_id` or `id`. */
const userRef = z.union([
  filled,
  z.object({ _id: lenient(filled), id: lenient(filled) }).transform((u) => u._id ?? u.id),
]);
const epoch = () => new Date(0).toISOString();

/**
 * A message as the server or the socket answers it, read into a MessageDto: `_id` or `id`, `text` or `content`,
 * `createdAt` or `timestamp` (an ISO string or milliseconds), the sender as an id or a user; a missing status is
 * 'sent'. No id or no conversation fails the parse.
 */
export const messageAnswer = z
  .object({
    _id: lenient(filled),
    id: lenient(filled),
    conversationId: filled,
    senderId: lenient(userRef),
    text: lenient(z.string()),
    content: lenient(z.string()),
    createdAt: lenient(z.union([z.number(), filled])),
    timestamp: lenient(z.union([z.number(), filled])),
    clientMessageId: lenient(filled),
    status: lenient(z.enum(['sent', 'delivered', 'read'])),
  })
  .refine((m) => m._id ?? m.id, 'A message needs an id')
  .transform((m): MessageDto => {
    const id = (m._id ?? m.id)!;
    const created = m.createdAt ?? m.timestamp;
    return {
      _id: id,
      id,
      conversationId: m.conversationId,
      senderId: m.senderId ?? '',
      text: m.text ?? m.content ?? '',
      clientMessageId: m.clientMessageId ?? '',
      createdAt: typeof created === 'number' ? new Date(created).toISOString() : (created ?? epoch()),
      status: m.status ?? 'sent',
    };
  });

const participantAnswer = z
  .object({
    _id: lenient(filled),
    id: lenient(filled),
    username: lenient(filled),
    profileImage: lenient(filled),
    isVeterinarian: lenient(z.boolean()),
  })
  .transform((p): ChatUserDto => {
    const id = p._id ?? p.id ?? '';
    return {
      _id: id,
      id,
      username: p.username ?? '',
      profileImage: p.profileImage ?? null,
      isVeterinarian: p.isVeterinarian === true,
    };
  });

/**
 * A conversation as the server answers it, read into a ConversationDto: `_id` or `id`; `members` as ids, or taken
 * from `participants` (ids or users); the last message's `text` or `content`; a missing update time is the
 * creation time. No id fails the parse.
 */
export const conversationAnswer = z
  .object({
    _id: lenient(filled),
    id: lenient(filled),
    members: lenient(z.array(filled.catch(''))),
    participants: lenient(z.array(z.union([filled, participantAnswer]).catch(''))),
    startedBy: lenient(filled),
    lastMessage: lenient(
      z.object({
        text: lenient(z.string()),
        content: lenient(filled),
        senderId: lenient(filled),
        createdAt: lenient(filled),
        timestamp: lenient(filled),
      }),
    ),
    updatedAt: lenient(filled),
    createdAt: lenient(filled),
    unreadCount: lenient(z.number()),
    ad: lenient(
      z.object({ _id: filled, name: lenient(filled), imageUrl: lenient(filled) }).transform((a) => ({
        _id: a._id,
        name: a.name ?? '',
        imageUrl: a.imageUrl ?? null,
      })),
    ),
  })
  .refine((c) => c._id ?? c.id, 'A conversation needs an id')
  .transform((c): ConversationDto => {
    const id = (c._id ?? c.id)!;
    const entries = c.participants ?? [];
    const participants = entries.filter((p): p is ChatUserDto => typeof p === 'object');
    const members = (c.members ?? entries.map((p) => (typeof p === 'string' ? p : p._id))).filter(Boolean);
    const updatedAt = c.updatedAt ?? c.createdAt ?? epoch();
    const last = c.lastMessage;
    const lastText = last?.text ?? last?.content;
    return {
      _id: id,
      id,
      members,
      participants,
      startedBy: c.startedBy ?? members[0] ?? '',
      lastMessage:
        last && lastText !== undefined
          ? {
              text: lastText,
              senderId: last.senderId ?? '',
              createdAt: last.createdAt ?? last.timestamp ?? updatedAt,
            }
          : null,
      updatedAt,
      createdAt: c.createdAt ?? updatedAt,
      unreadCount: c.unreadCount && c.unreadCount > 0 ? Math.floor(c.unreadCount) : 0,
      ad: c.ad ?? null,
    };
  });

/** What the socket gateway pushes. */
export type SocketEvents = {
  getMessage: MessageDto;
  userTyping: { userId: string; conversationId: string };
  /** A receipt moved: the sender's ticks change. */
  messagesStatus: {
    conversationId: string;
    userId: string;
    upToMessageId: string;
    status: 'delivered' | 'read';
  };
  presence: { userId: string; online: boolean };
  /** The conversation is gone (the other member's account was deleted): it leaves the list. */
  conversationRemoved: { conversationId: string };
};
