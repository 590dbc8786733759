import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { adIdOfStream, conversationStream, emailClaimStream } from '@pawhaven/contracts';
import { handleCommand, type EventStore } from '@pawhaven/platform';
import { claimOwner } from '../accounts/claims';
import { conversationDecider, conversationIdFor, type ConversationCommand } from './conversation';

const SANA = 'sana.adopts@gmail.com';
const BILAL = 'bilal.rescue@gmail.com';

const DEMO_MESSAGES: { from: 'sana' | 'bilal'; text: string }[] = [
  { from: 'sana', text: 'Hi Bilal! I just sent a request for Moti. Is he okay with cats?' },
  {
    from: 'bilal',
    text: "Hi Sana, thanks! He grew up around our building's cats and is very gentle with them.",
  },
  { from: 'sana', text: 'Wonderful. Could we come and meet him on Saturday afternoon?' },
];

/**
 * A demo conversation (Sana asks Bilal about Moti, the ad she requested), through the same commands as the app, so
 * /chat is not empty on the embedded first start: Bilal has one unread message, Sana has read his answer.
 */
export async function seedDemoChat(store: EventStore, knex: Knex): Promise<boolean> {
  const [sana, bilal] = await Promise.all([
    claimOwner(store, emailClaimStream(SANA)),
    claimOwner(store, emailClaimStream(BILAL)),
  ]);
  if (!sana || !bilal) return false;
  const moti = await adNamed(store, knex, bilal, 'Moti');
  const conversationId = conversationIdFor(sana, bilal);
  const run = (command: ConversationCommand, actorId: string) =>
    handleCommand(store, conversationStream(conversationId), conversationDecider, command, { actorId });
  await run(
    {
      type: 'StartConversation',
      data: {
        conversationId,
        starterId: sana,
        otherId: bilal,
        otherExists: true,
        adId: moti,
        now: new Date(),
      },
    },
    sana,
  );
  // Each answers having read what came before: Bilal is left with Sana's last question unread.
  const last: Record<string, string | null> = { [sana]: null, [bilal]: null };
  for (const m of DEMO_MESSAGES) {
    const senderId = m.from === 'sana' ? sana : bilal;
    const other = senderId === sana ? bilal : sana;
    const unread = last[other];
    if (unread)
      await run(
        { type: 'MarkRead', data: { userId: senderId, upToMessageId: unread, now: new Date() } },
        senderId,
      );
    const messageId = randomUUID();
    await run(
      {
        type: 'SendMessage',
        data: { senderId, messageId, clientMessageId: randomUUID(), text: m.text, now: new Date() },
      },
      senderId,
    );
    last[senderId] = messageId;
  }
  return true;
}

/** The id of `ownerId`'s ad of the pet `name`, or null: pets' names are sealed in the log, so each ad is opened. */
async function adNamed(store: EventStore, knex: Knex, ownerId: string, name: string): Promise<string | null> {
  const published = (await knex('events')
    .where({ type: 'AdoptionAdPublished' })
    .whereRaw(`data->>'ownerId' = ?`, [ownerId])
    .select('stream_id')) as { stream_id: string }[];
  for (const { stream_id } of published)
    for await (const e of store.readStream(stream_id, { maxCount: 1 }))
      if ((e.data as { details?: { name?: unknown } }).details?.name === name) return adIdOfStream(stream_id);
  return null;
}
