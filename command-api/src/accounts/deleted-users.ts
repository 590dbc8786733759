import type { Knex } from 'knex';

/**
 * Whether content belongs to a deleted user (`UserDeleted` in their stream). A deleted user's ads, posts and
 * conversations are gone from every read model, so nobody may act on them any more (request, like, comment,
 * message): without this check such a command would be recorded and shown nowhere. Read from the log (ids only, never
 * sealed), one indexed lookup: the content's first event names its creator.
 */
export async function creatorIsDeleted(
  knex: Knex,
  streamId: string,
  creatorField: 'ownerId' | 'authorId',
): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: { deleted: boolean }[] }>(
    `SELECT EXISTS (
       SELECT 1 FROM events c
         JOIN events u ON u.stream_id = 'user-' || (c.data->>?) AND u.type = 'UserDeleted'
        WHERE c.stream_id = ? AND c.stream_revision = 0
     ) AS deleted`,
    [creatorField, streamId],
  );
  return rows[0]?.deleted === true;
}

/** Whether either member of a conversation (`conversation-{id}`, first event ConversationStarted) is deleted. */
export async function conversationMemberIsDeleted(knex: Knex, streamId: string): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: { deleted: boolean }[] }>(
    `SELECT EXISTS (
       SELECT 1 FROM events c
         JOIN events u ON u.stream_id IN ('user-' || (c.data->'memberIds'->>0), 'user-' || (c.data->'memberIds'->>1))
                      AND u.type = 'UserDeleted'
        WHERE c.stream_id = ? AND c.stream_revision = 0
     ) AS deleted`,
    [streamId],
  );
  return rows[0]?.deleted === true;
}
