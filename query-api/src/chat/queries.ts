import type {
  ChatUserDto,
  ConversationDto,
  MessageDto,
  MessagePage,
  MessageStatus,
} from '@pawhaven/contracts';
import type { Pool } from 'pg';

type ConversationRow = {
  id: string;
  started_by: string;
  created_at: Date;
  updated_at: Date;
  last_text: string | null;
  last_sender_id: string | null;
  last_at: Date | null;
  unread_count: number;
  user_id: string;
  other_id: string;
  me_username: string | null;
  me_image: string | null;
  me_vet: boolean | null;
  other_username: string | null;
  other_image: string | null;
  other_vet: boolean | null;
  ad_id: string | null;
  ad_name: string | null;
  ad_image: string | null;
};

/** A conversation as one of its members sees it (their unread count), with both members and the ad it is about. */
const CONVERSATION_SQL = `
  SELECT c.id, c.started_by, c.created_at, c.updated_at, c.last_text, c.last_sender_id, c.last_at,
         m.unread_count, m.user_id, m.other_id,
         me.username AS me_username, me.profile_image AS me_image, me.is_veterinarian AS me_vet,
         o.username AS other_username, o.profile_image AS other_image, o.is_veterinarian AS other_vet,
         c.ad_id, a.name AS ad_name, a.image_url AS ad_image
  FROM conversation_members m
  JOIN conversations c ON c.id = m.conversation_id
  LEFT JOIN users me ON me.id = m.user_id
  LEFT JOIN users o ON o.id = m.other_id
  LEFT JOIN adoption_ads a ON a.id = c.ad_id`;

const user = (
  id: string,
  username: string | null,
  image: string | null,
  vet: boolean | null,
): ChatUserDto => ({
  _id: id,
  id,
  username: username ?? 'Unknown User',
  profileImage: image,
  isVeterinarian: vet ?? false,
});

const conversationDto = (r: ConversationRow): ConversationDto => {
  // Members in a stable order (the starter first), whoever asks.
  const me = user(r.user_id, r.me_username, r.me_image, r.me_vet);
  const other = user(r.other_id, r.other_username, r.other_image, r.other_vet);
  const participants = r.started_by === r.user_id ? [me, other] : [other, me];
  return {
    _id: r.id,
    id: r.id,
    members: participants.map((p) => p.id),
    participants,
    startedBy: r.started_by,
    lastMessage:
      r.last_text === null || r.last_at === null
        ? null
        : { text: r.last_text, senderId: r.last_sender_id ?? '', createdAt: r.last_at.toISOString() },
    updatedAt: r.updated_at.toISOString(),
    createdAt: r.created_at.toISOString(),
    unreadCount: r.unread_count,
    ad: r.ad_id && r.ad_name !== null ? { _id: r.ad_id, name: r.ad_name, imageUrl: r.ad_image } : null,
  };
};

/** A user's conversations, most recently updated first. */
export async function conversationsOf(pool: Pool, userId: string): Promise<ConversationDto[]> {
  const { rows } = await pool.query<ConversationRow>({
    name: 'chat-conversations-of',
    text: `${CONVERSATION_SQL} WHERE m.user_id = $1 ORDER BY c.updated_at DESC, c.id`,
    values: [userId],
  });
  return rows.map(conversationDto);
}

/** One conversation as `viewerId` sees it, or null when it does not exist or they are not a member. */
export async function conversationFor(
  pool: Pool,
  conversationId: string,
  viewerId: string,
): Promise<ConversationDto | null> {
  const { rows } = await pool.query<ConversationRow>({
    name: 'chat-conversation-for',
    text: `${CONVERSATION_SQL} WHERE m.conversation_id = $1 AND m.user_id = $2`,
    values: [conversationId, viewerId],
  });
  return rows[0] ? conversationDto(rows[0]) : null;
}

/** The two members of a conversation, or null. */
export async function membersOf(pool: Pool, conversationId: string): Promise<string[] | null> {
  const { rows } = await pool.query<{ user_id: string }>({
    name: 'chat-members-of',
    text: 'SELECT user_id FROM conversation_members WHERE conversation_id = $1',
    values: [conversationId],
  });
  return rows.length === 0 ? null : rows.map((r) => r.user_id);
}

type MessageRow = {
  id: string;
  conversation_id: string;
  sender_id: string;
  text: string;
  client_message_id: string;
  created_at: Date;
  status: MessageStatus;
};

/** A message with its ticks: compared with what its recipient has received and read. */
const MESSAGE_SQL = `
  SELECT c.id, c.conversation_id, c.seq, c.sender_id, c.text, c.client_message_id, c.created_at,
         CASE WHEN c.seq <= r.read_seq THEN 'read' WHEN c.seq <= r.delivered_seq THEN 'delivered' ELSE 'sent' END
           AS status
  FROM chat_messages c
  LEFT JOIN conversation_members r ON r.conversation_id = c.conversation_id AND r.user_id = c.recipient_id`;

const messageDto = (r: MessageRow): MessageDto => ({
  _id: r.id,
  id: r.id,
  conversationId: r.conversation_id,
  senderId: r.sender_id,
  text: r.text,
  clientMessageId: r.client_message_id,
  createdAt: r.created_at.toISOString(),
  status: r.status,
});

export async function messageById(pool: Pool, messageId: string): Promise<MessageDto | null> {
  const { rows } = await pool.query<MessageRow>({
    name: 'chat-message-by-id',
    text: `${MESSAGE_SQL} WHERE c.id = $1`,
    values: [messageId],
  });
  return rows[0] ? messageDto(rows[0]) : null;
}

/** Page 1 is the newest `limit` messages; each page oldest first, so pages stack upwards as the user scrolls. */
export async function messagesPage(
  pool: Pool,
  conversationId: string,
  page: number,
  limit: number,
): Promise<MessagePage> {
  const offset = Math.min((page - 1) * limit, 2 ** 31 - 1);
  const [{ rows }, count] = await Promise.all([
    pool.query<MessageRow>({
      name: 'chat-messages-page',
      text: `SELECT * FROM (${MESSAGE_SQL} WHERE c.conversation_id = $1 ORDER BY c.seq DESC LIMIT $2 OFFSET $3) p
             ORDER BY p.seq`,
      values: [conversationId, limit, offset],
    }),
    pool.query<{ message_count: number }>({
      name: 'chat-messages-count',
      text: 'SELECT message_count FROM conversations WHERE id = $1',
      values: [conversationId],
    }),
  ]);
  const total = count.rows[0]?.message_count ?? 0;
  return {
    success: true,
    data: rows.map(messageDto),
    pagination: { page, limit, total, hasMore: offset + rows.length < total },
  };
}
