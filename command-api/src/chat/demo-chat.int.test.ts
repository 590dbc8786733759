import { expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../accounts/demo-users';
import { startTestApp } from '@pawhaven/testing';

/** The embedded first start has a lived-in chat: Sana asked Bilal about Moti, Bilal has one unread message. */
it('seeds a demo conversation about a demo ad on the first start, through the real deciders and projections', async () => {
  const t = await startTestApp({ demoData: true });
  try {
    const bilal = await t.api.post('/api/auth/signin', {
      email: 'bilal.rescue@gmail.com',
      password: DEMO_PASSWORD,
    });
    expect(bilal.status, bilal.text).toBe(200);
    let list: { unreadCount: number; lastMessage: { text: string } | null; ad: { name: string } | null }[] =
      [];
    // The seeding happened during the start; the projector may still be catching up with its last messages.
    const last = 'Wonderful. Could we come and meet him on Saturday afternoon?';
    for (let i = 0; i < 100 && list[0]?.lastMessage?.text !== last; i++) {
      list = (await t.api.get(`/api/conversations/${bilal.body.user._id}`, bilal.body.token)).body.data;
      if (list[0]?.lastMessage?.text !== last) await new Promise((r) => setTimeout(r, 100));
    }
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      unreadCount: 1,
      lastMessage: { text: 'Wonderful. Could we come and meet him on Saturday afternoon?' },
      ad: { name: 'Moti' },
    });
  } finally {
    await t.stop();
  }
});
