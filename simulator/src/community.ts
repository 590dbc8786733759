import { postLikeStream, postStream } from '@pawhaven/contracts';
import type { NewEvent } from '@pawhaven/platform';
import { POST_LINES, VET_POST_LINES, POST_TAILS, COMMENTS, REPLIES } from './texts';
import { ACTIVE, DELETED, pushCapped, type User, type Post, type PostComment, type Like } from './state';
import { SEC, type World } from './world';
import { notify } from './notifications';

/** Community posts: publishing, captions, comments and likes, and their deletions. */

function postAppend(w: World, post: Post, events: NewEvent[], deps: number[], actor: User): number {
  const idx = w.emit(postStream(post.id), events, post.rev, deps, actor);
  post.rev += events.length;
  return idx;
}

function newCaption(w: World, u: User): string {
  const line = u.isVet && w.rng.chance(0.6) ? w.rng.pick(VET_POST_LINES) : w.rng.pick(POST_LINES);
  return w.fill(line) + w.rng.pick(POST_TAILS);
}

export function publishPost(w: World): void {
  const author = w.pickUser();
  if (!author) return;
  const post: Post = {
    n: w.postCount++,
    id: w.rng.uuid(),
    author,
    caption: newCaption(w, author),
    deleted: false,
    rev: -1,
    createdIdx: -1,
    comments: [],
  };
  post.createdIdx = postAppend(
    w,
    post,
    [
      w.ev(
        'PostPublished',
        {
          postId: post.id,
          authorId: author.id,
          authorIsVeterinarian: author.isVet,
          caption: post.caption,
          imageUrl: w.image(),
          publishedAt: w.iso(),
        },
        { actorId: author.id },
      ),
    ],
    [author.readyIdx],
    author,
  );
  pushCapped(author.posts, post, 20);
  w.at(w.rng.range(5, 120) * SEC, () => w.posts.add(post));
}

function ownPost(w: World, u: User): Post | undefined {
  const live = u.posts.filter((p) => !p.deleted);
  return live.length > 0 ? w.rng.pick(live) : undefined;
}

export function editCaption(w: World): void {
  const u = w.pickUser();
  const post = u && ownPost(w, u);
  if (!u || !post) return;
  const caption = w.rng.chance(0.5) ? `${post.caption} (edit: ${w.rng.pick(REPLIES)})` : newCaption(w, u);
  if (caption === post.caption) return;
  post.caption = caption;
  postAppend(
    w,
    post,
    [
      w.ev(
        'PostCaptionEdited',
        { postId: post.id, authorId: u.id, caption, editedAt: w.iso() },
        { actorId: u.id },
      ),
    ],
    [u.readyIdx],
    u,
  );
}

function deletePost(w: World, post: Post, actor: User): void {
  post.deleted = true;
  postAppend(
    w,
    post,
    [
      w.ev(
        'PostDeleted',
        {
          postId: post.id,
          authorId: post.author.id,
          actorId: actor.id,
          byAdmin: actor !== post.author,
          deletedAt: w.iso(),
        },
        { actorId: actor.id },
      ),
    ],
    [actor.readyIdx],
    actor,
  );
}

export function deleteOwnPost(w: World): void {
  const u = w.pickUser();
  const post = u && ownPost(w, u);
  if (u && post) deletePost(w, post, u);
}

export function adminDeletePost(w: World): void {
  const admin = w.pickAdmin();
  const post = w.posts.pick(w.rng, 2000, 0.5);
  if (admin && post) deletePost(w, post, admin);
}

export function comment(w: World): void {
  const post = w.posts.pick(w.rng, 300, 0.8);
  if (!post) return;
  // The latest few comments still shown: what a reply answers.
  const live: PostComment[] = [];
  for (let i = post.comments.length - 1; i >= 0 && live.length < 6; i--) {
    const c = post.comments[i]!;
    if (!c.deleted && c.author.status !== DELETED) live.push(c);
  }
  const author =
    live.length > 0 && w.rng.chance(0.15) && post.author.status === ACTIVE ? post.author : w.pickUser();
  if (!author) return;
  const parent = live.length > 0 && w.rng.chance(0.35) ? w.rng.pick(live) : null;
  const c: PostComment = { id: w.rng.uuid(), post, author, deleted: false, idx: -1 };
  const content = parent ? w.fill(w.rng.pick(REPLIES)) : w.fill(w.rng.pick(COMMENTS));
  const event = w.ev(
    'CommentAdded',
    {
      commentId: c.id,
      postId: post.id,
      postAuthorId: post.author.id,
      authorId: author.id,
      content,
      parentCommentId: parent?.id ?? null,
      parentAuthorId: parent?.author.id ?? null,
      addedAt: w.iso(),
    },
    { actorId: author.id },
  );
  c.idx = postAppend(w, post, [event], [author.readyIdx, post.createdIdx], author);
  post.comments.push(c);
  pushCapped(author.comments, c, 20);
  const ref = {
    eventId: event.eventId!,
    idx: c.idx,
    kind: 'comment' as const,
    actor: author,
    post,
    comment: c,
  };
  if (post.author !== author) notify(w, post.author, ref);
  if (parent && parent.author !== author && parent.author !== post.author) notify(w, parent.author, ref);
}

function deleteComment(w: World, c: PostComment, actor: User): void {
  c.deleted = true;
  postAppend(
    w,
    c.post,
    [
      w.ev(
        'CommentDeleted',
        {
          commentId: c.id,
          postId: c.post.id,
          authorId: c.author.id,
          actorId: actor.id,
          byAdmin: actor !== c.author,
          deletedAt: w.iso(),
        },
        { actorId: actor.id },
      ),
    ],
    [actor.readyIdx],
    actor,
  );
}

export function deleteOwnComment(w: World): void {
  const u = w.pickUser();
  if (!u) return;
  const live = u.comments.filter((c) => !c.deleted && !c.post.deleted && c.post.author.status !== DELETED);
  if (live.length > 0) deleteComment(w, w.rng.pick(live), u);
}

export function adminDeleteComment(w: World): void {
  const admin = w.pickAdmin();
  const post = w.posts.pick(w.rng, 1000, 0.7);
  if (!admin || !post) return;
  const live = post.comments.filter((c) => !c.deleted && c.author.status !== DELETED);
  if (live.length > 0) deleteComment(w, w.rng.pick(live), admin);
}

function likeAppend(
  w: World,
  like: Like,
  type: 'PostLiked' | 'PostUnliked',
): { idx: number; event: NewEvent } {
  const { post, user } = like;
  const at = w.iso();
  const event = w.ev(
    type,
    type === 'PostLiked'
      ? { postId: post.id, postAuthorId: post.author.id, userId: user.id, likedAt: at }
      : { postId: post.id, postAuthorId: post.author.id, userId: user.id, unlikedAt: at },
    { actorId: user.id },
  );
  const idx = w.emit(
    postLikeStream(post.id, user.id),
    [event],
    like.rev,
    [user.readyIdx, post.createdIdx],
    user,
  );
  like.rev++;
  like.liked = type === 'PostLiked';
  return { idx, event };
}

export function like(w: World): void {
  const post = w.posts.pick(w.rng, 300, 0.8);
  if (!post) return;
  for (let attempt = 0; attempt < 3; attempt++) {
    const user = w.pickUser();
    if (!user || user === post.author) continue;
    const key = post.n * 4_194_304 + user.idx;
    let like = w.likes.get(key);
    if (like?.liked) continue;
    if (!like) w.likes.set(key, (like = { post, user, rev: -1, liked: false, gen: 0 }));
    const { idx, event } = likeAppend(w, like, 'PostLiked');
    like.gen++;
    w.recentLikes.push(like);
    notify(w, post.author, {
      eventId: event.eventId!,
      idx,
      kind: 'like',
      actor: user,
      post,
      like,
      gen: like.gen,
    });
    return;
  }
}

export function unlike(w: World): void {
  const like = w.recentLikes.pick(w.rng);
  if (!like?.liked || like.post.deleted || like.post.author.status === DELETED || like.user.status !== ACTIVE)
    return;
  likeAppend(w, like, 'PostUnliked');
}
