import { expect, it } from 'vitest';
import { startTestApp } from '@pawhaven/testing';

/** The embedded first start shows a lived-in feed: demo posts with a thread and likes, only once. */
it('seeds the demo posts on the first start only, through the real deciders and projections', async () => {
  const first = await startTestApp({ demoData: true });
  try {
    let posts: { caption: string; likes: string[]; comments: { parentCommentId: string | null }[] }[] = [];
    for (let i = 0; i < 100 && posts.length < 3; i++) {
      posts = (await first.api.get('/api/posts')).body;
      if (posts.length < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(posts.map((p) => p.caption.slice(0, 20))).toEqual([
      'One year since we ad',
      'Summer tip from the ',
      'Found this little on',
    ]);
    const rescue = posts[2]!;
    expect(rescue.likes).toHaveLength(2);
    expect(rescue.comments.filter((c) => c.parentCommentId !== null)).toHaveLength(1);
    const again = await startTestApp({ demoData: true, db: first.db });
    try {
      expect(again.app.demoUsers).toEqual([]);
      expect((await again.api.get('/api/posts')).body).toHaveLength(3);
    } finally {
      await again.stop();
    }
  } finally {
    await first.stop();
  }
});
