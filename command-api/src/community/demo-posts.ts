import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { COMMUNITY_LIMITS, postLikeStream, postStream, emailClaimStream } from '@pawhaven/contracts';
import { handleCommand, type EventStore } from '@pawhaven/platform';
import { claimOwner } from '../accounts/claims';
import { postPicture, type PostScene } from '../images/illustrations/posts';
import { withStagedImage } from '../images/image-store';
import { postLikeDecider } from './post-like';
import { postDecider, type PostCommand } from './post';

type DemoComment = { by: string; content: string; replies?: DemoComment[] };
export type DemoPost = {
  author: string;
  isVet: boolean;
  /** The drawn picture, fitting the caption. */
  scene: PostScene;
  caption: string;
  likedBy: string[];
  comments: DemoComment[];
};

const AYESHA = 'ayesha.vet@gmail.com';
const BILAL = 'bilal.rescue@gmail.com';
const SANA = 'sana.adopts@gmail.com';

/** The demo's posts (the browser tests read them to know what the cards should show). */
export const DEMO_POSTS: readonly DemoPost[] = [
  {
    author: BILAL,
    isVet: false,
    scene: 'rescue',
    caption:
      'Found this little one shivering under a car in Gulberg after the rain. Dry, fed and asleep on a towel now. Thank you to everyone who shared the alert!',
    likedBy: [SANA, AYESHA],
    comments: [
      {
        by: AYESHA,
        content:
          'Well done! Keep her warm tonight and bring her in for a check-up and first vaccines this week.',
        replies: [{ by: BILAL, content: 'Will do, thank you doctor. Booking for Thursday.' }],
      },
      { by: SANA, content: 'She is adorable. Let us know if she needs a foster home!' },
    ],
  },
  {
    author: AYESHA,
    isVet: true,
    scene: 'summer shade',
    caption:
      'Summer tip from the clinic: fresh water in the shade, walks only before 9 am or after sunset, and never leave a pet in a parked car, not even for five minutes.',
    likedBy: [BILAL, SANA],
    comments: [{ by: SANA, content: 'Sharing this with my building group, thank you!' }],
  },
  {
    author: SANA,
    isVet: false,
    scene: 'adoption anniversary',
    caption: 'One year since we adopted Coco. Best decision our family ever made. Adopt, don’t shop!',
    likedBy: [BILAL],
    comments: [],
  },
];

/** A demo post's picture: its scene, the colours chosen by its caption. */
export const demoPostPicture = (post: DemoPost) => postPicture(post.scene, post.caption);

/**
 * Demo posts of the demo accounts, published, commented and liked through the same deciders as the app, so /posts
 * is not empty on the embedded first start. Only alongside freshly created demo accounts.
 */
export async function seedDemoPosts(store: EventStore, knex: Knex): Promise<number> {
  const idOf = async (email: string) => (await claimOwner(store, emailClaimStream(email))) ?? null;
  let published = 0;
  for (const post of DEMO_POSTS) {
    const authorId = await idOf(post.author);
    if (!authorId) continue;
    const postId = randomUUID();
    const run = (command: PostCommand, actorId: string) =>
      handleCommand(store, postStream(postId), postDecider, command, { actorId });
    const bytes = await demoPostPicture(post);
    const kind = {
      maxBytes: COMMUNITY_LIMITS.imageMaxBytes,
      width: 1200,
      height: 1200,
      fit: 'inside',
      tooLarge: 'too large',
      invalid: 'invalid',
    } as const;
    await withStagedImage(knex, { bytes, kind, streamId: postStream(postId) }, (imageUrl) =>
      run(
        {
          type: 'PublishPost',
          data: {
            postId,
            authorId,
            authorIsVeterinarian: post.isVet,
            caption: post.caption,
            imageUrl,
            now: new Date(),
          },
        },
        authorId,
      ),
    );
    const comment = async (c: DemoComment, parentCommentId: string | null) => {
      const by = await idOf(c.by);
      if (!by) return;
      const commentId = randomUUID();
      const now = new Date();
      await run(
        parentCommentId
          ? {
              type: 'ReplyToComment',
              data: { commentId, authorId: by, content: c.content, parentCommentId, now },
            }
          : { type: 'AddComment', data: { commentId, authorId: by, content: c.content, now } },
        by,
      );
      for (const reply of c.replies ?? []) await comment(reply, commentId);
    };
    for (const c of post.comments) await comment(c, null);
    for (const email of post.likedBy) {
      const userId = await idOf(email);
      if (!userId) continue;
      await handleCommand(
        store,
        postLikeStream(postId, userId),
        postLikeDecider,
        {
          type: 'ToggleLike',
          data: { postId, userId, postExists: true, postAuthorId: authorId, now: new Date() },
        },
        { actorId: userId },
      );
    }
    published++;
  }
  return published;
}
