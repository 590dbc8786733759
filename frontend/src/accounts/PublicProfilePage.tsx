import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CalendarIcon from '@mui/icons-material/CalendarMonthOutlined';
import ChatBubbleIcon from '@mui/icons-material/ChatBubbleOutline';
import ChatIcon from '@mui/icons-material/ChatOutlined';
import FavoriteIcon from '@mui/icons-material/FavoriteBorder';
import LocationIcon from '@mui/icons-material/PlaceOutlined';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibraryOutlined';
import PetsIcon from '@mui/icons-material/Pets';
import ScheduleIcon from '@mui/icons-material/Schedule';
import type { AdoptionAdDto, PostDto, PublicUserDto } from '@pawhaven/contracts';
import { ageText, breedText, locationText } from '../adoption/format';
import { communityApi, communityKeys } from '../community/api';
import { commentCountOf, likeCountOf, monthDay, postTitleAndText } from '../community/format';
import { api } from '../shared/api';
import { useCurrentUser } from '../shared/session';
import { PageLoader } from '../shared/ui/PageLoader';
import { PetImage } from '../shared/ui/PetImage';
import { UserAvatar } from '../shared/ui/UserAvatar';
import { UserNameHeading } from '../shared/ui/UserNameHeading';
import { useOpenChat } from '../chat/useOpenChat';
import { accountsApi } from './api';
import { formatDate, relativeActive } from './profile/display';

/** The public profile answer: the user's public fields with the join and last-active times and counts. */
type ProfileData = PublicUserDto & { postCount?: number; adoptionAdCount?: number };

/** An ad as a profile shows it: likes and comments are counted when the server sends them. */
type ProfileAd = AdoptionAdDto & {
  likes?: unknown[];
  comments?: unknown[];
  likeCount?: number;
  commentCount?: number;
};

/** Lists that fail to load are shown as empty. */
async function listOrEmpty<T>(load: () => Promise<unknown>): Promise<T[]> {
  try {
    const data = await load();
    if (Array.isArray(data)) return data as T[];
    const inner = (data as { data?: unknown })?.data;
    return Array.isArray(inner) ? (inner as T[]) : [];
  } catch {
    return [];
  }
}

const count = (list: unknown[] | undefined, n: number | undefined) =>
  typeof n === 'number' ? n : (list?.length ?? 0);

/**
 * The public profile: back and 'Profile'; Message (for a signed-in user on another user's profile); avatar, name with
 * the vet badge, city, '{n} Adoption Ads', about, Joined and Active; the Adoption Ads and Posts tabs with their loading
 * texts, empty states and cards; 'Profile Not Found' when it cannot be loaded.
 */
export default function PublicProfilePage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const [tab, setTab] = useState<'ads' | 'posts'>('ads');
  const { openChat, checking } = useOpenChat();

  const profile = useQuery({
    queryKey: ['public-profile', userId],
    queryFn: async () => {
      const res = await accountsApi.publicProfile(userId);
      if (!res?.success || !res.data) throw new Error(res?.message || 'Failed to load profile');
      return res.data as ProfileData;
    },
    retry: false,
  });
  const ads = useQuery({
    queryKey: ['user-adoptions', userId],
    queryFn: () =>
      listOrEmpty<ProfileAd>(() =>
        api.get(`/api/adoptions/user/${encodeURIComponent(userId)}`, { timeoutMs: 10_000 }),
      ),
  });
  const posts = useQuery({
    queryKey: communityKeys.ofUser(userId),
    queryFn: ({ signal }) => listOrEmpty<PostDto>(() => communityApi.byUser(userId, signal)),
  });

  const user = profile.data;
  const profileId = user ? user.id || user._id : userId;
  const myId = me ? me.id || me._id : null;
  // Only a signed-in user can write, and not to themselves: a visitor sees no button that leads to sign-in.
  const showMessage = Boolean(user) && myId !== null && myId !== profileId;

  const header = (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
      <IconButton aria-label="Go back" onClick={() => navigate(-1)}>
        <ArrowBackIcon />
      </IconButton>
      <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
        Profile
      </Typography>
      {showMessage && (
        <Button
          variant="contained"
          startIcon={<ChatIcon />}
          // Checks for an existing conversation, then /chat/{userId} (even when the check fails).
          onClick={() => void openChat(profileId)}
          disabled={checking}
        >
          Message
        </Button>
      )}
    </Box>
  );

  if (profile.isPending) {
    return (
      <Container maxWidth="md" sx={{ py: 3, px: { xs: 1.5, sm: 3 } }}>
        {header}
        <PageLoader />
      </Container>
    );
  }
  if (profile.isError || !user) {
    return (
      <Container maxWidth="md" sx={{ py: 3, px: { xs: 1.5, sm: 3 } }}>
        {header}
        <Paper
          sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', border: 1, borderColor: 'divider' }}
          elevation={0}
        >
          <Typography variant="h5" component="h2" gutterBottom>
            Profile Not Found
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            Failed to load profile. This user may not exist or the profile is private.
          </Typography>
          <Button component={Link} to="/" variant="contained">
            Go Home
          </Button>
        </Paper>
      </Container>
    );
  }

  // The tab lists the ads one can still adopt; the count says how many (the server's count until they load).
  const adList = (ads.data ?? []).filter((ad) => !ad.status || ad.status === 'available');
  const adCount = ads.data ? adList.length : (user.adoptionAdCount ?? 0);
  const postList = posts.data ?? [];
  const joined = formatDate(user.joinedDate);

  return (
    <Container maxWidth="md" sx={{ py: 3, px: { xs: 1.5, sm: 3 } }}>
      {header}
      <Paper sx={{ p: { xs: 2.5, sm: 4 }, border: 1, borderColor: 'divider' }} elevation={0}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={3}
          sx={{ alignItems: { xs: 'center', sm: 'flex-start' } }}
        >
          <UserAvatar username={user.username} profileImage={user.profileImage} size={104} />
          <Box sx={{ flex: 1, minWidth: 0, textAlign: { xs: 'center', sm: 'left' } }}>
            <UserNameHeading username={user.username} isVeterinarian={user.isVeterinarian} />
            <Stack
              direction="row"
              spacing={2}
              sx={{
                mt: 0.5,
                flexWrap: 'wrap',
                rowGap: 0.5,
                justifyContent: { xs: 'center', sm: 'flex-start' },
                alignItems: 'center',
              }}
            >
              {user.city && (
                <Typography
                  color="text.secondary"
                  sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                >
                  <LocationIcon fontSize="small" aria-hidden /> {user.city}
                </Typography>
              )}
              <Typography sx={{ fontWeight: 700 }} data-testid="ad-count">
                {adCount} Adoption Ads
              </Typography>
            </Stack>
            <Typography
              sx={{
                mt: 2,
                whiteSpace: 'pre-line',
                wordBreak: 'break-word',
                color: user.about ? 'text.primary' : 'text.secondary',
                fontStyle: user.about ? 'normal' : 'italic',
              }}
            >
              {user.about || "This user hasn't written a bio yet."}
            </Typography>
            <Stack
              direction="row"
              spacing={2}
              sx={{
                mt: 1.5,
                color: 'text.secondary',
                flexWrap: 'wrap',
                rowGap: 0.5,
                justifyContent: { xs: 'center', sm: 'flex-start' },
              }}
            >
              {joined && (
                <Typography variant="body2" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                  <CalendarIcon fontSize="small" aria-hidden /> Joined {joined}
                </Typography>
              )}
              {user.lastActive && (
                <Typography variant="body2" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                  <ScheduleIcon fontSize="small" aria-hidden /> Active {relativeActive(user.lastActive)}
                </Typography>
              )}
            </Stack>
          </Box>
        </Stack>
      </Paper>

      <Tabs
        value={tab}
        onChange={(_, v: 'ads' | 'posts') => setTab(v)}
        sx={{ mt: 3, borderBottom: 1, borderColor: 'divider' }}
        variant="fullWidth"
        aria-label="Profile content"
      >
        <Tab value="ads" label="Adoption Ads" id="tab-ads" aria-controls="panel-ads" />
        <Tab value="posts" label="Posts" id="tab-posts" aria-controls="panel-posts" />
      </Tabs>

      <Box role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} sx={{ py: 3 }}>
        {tab === 'ads' ? (
          ads.isPending ? (
            <Typography color="text.secondary" role="status">
              Loading adoption ads...
            </Typography>
          ) : adList.length === 0 ? (
            <Empty
              icon={<PetsIcon />}
              title="No Adoption Ads"
              text={`${user.username} hasn't posted any pets for adoption yet`}
            />
          ) : (
            <Box
              component="ul"
              aria-label={`${user.username}'s adoption ads`}
              sx={{
                display: 'grid',
                gap: 2,
                p: 0,
                m: 0,
                listStyle: 'none',
                gridTemplateColumns: {
                  xs: 'minmax(0, 1fr)',
                  sm: 'repeat(2, minmax(0, 1fr))',
                  md: 'repeat(3, minmax(0, 1fr))',
                },
              }}
            >
              {adList.map((ad) => (
                <AdCard key={ad._id} ad={ad} />
              ))}
            </Box>
          )
        ) : posts.isPending ? (
          <Typography color="text.secondary" role="status">
            Loading posts...
          </Typography>
        ) : postList.length === 0 ? (
          <Empty
            icon={<PhotoLibraryIcon />}
            title="No Posts Yet"
            text={`${user.username} hasn't shared any posts yet`}
          />
        ) : (
          <Stack
            component="ul"
            spacing={2}
            sx={{ p: 0, m: 0, listStyle: 'none' }}
            aria-label={`${user.username}'s posts`}
          >
            {postList.map((post) => (
              <PostItem key={post._id} post={post} />
            ))}
          </Stack>
        )}
      </Box>
    </Container>
  );
}

function Counts({ likes, comments }: { likes: number; comments: number }) {
  return (
    <Stack direction="row" spacing={2} sx={{ color: 'text.secondary', alignItems: 'center' }}>
      <Typography
        variant="body2"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        role="img"
        aria-label={`${likes} ${likes === 1 ? 'like' : 'likes'}`}
      >
        <FavoriteIcon fontSize="small" aria-hidden /> {likes}
      </Typography>
      <Typography
        variant="body2"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        role="img"
        aria-label={`${comments} ${comments === 1 ? 'comment' : 'comments'}`}
      >
        <ChatBubbleIcon fontSize="small" aria-hidden /> {comments}
      </Typography>
    </Stack>
  );
}

function AdCard({ ad }: { ad: ProfileAd }) {
  return (
    <Card component="li" aria-label={ad.name} sx={{ minWidth: 0 }}>
      <Box sx={{ position: 'relative' }}>
        <PetImage src={ad.imageUrl} alt={`Photo of ${ad.name}`} height={170} />
        <Chip
          label="Adoptable"
          color="success"
          size="small"
          sx={{ position: 'absolute', top: 10, left: 10, fontWeight: 700 }}
        />
      </Box>
      <CardContent>
        <Typography variant="h6" component="h3" sx={{ wordBreak: 'break-word', lineHeight: 1.3 }}>
          {ad.name}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {breedText(ad)}
        </Typography>
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ display: 'flex', alignItems: 'center', gap: 0.5, wordBreak: 'break-word' }}
        >
          <LocationIcon fontSize="small" aria-hidden /> {locationText(ad)}
        </Typography>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mt: 1.5, gap: 1 }}>
          <Counts likes={count(ad.likes, ad.likeCount)} comments={count(ad.comments, ad.commentCount)} />
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            {ageText(ad)}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}

function PostItem({ post }: { post: PostDto }) {
  const { title, text } = postTitleAndText(post);
  return (
    <Card component="li" sx={{ minWidth: 0 }}>
      <CardActionArea component={Link} to={`/posts/${post._id}`} aria-label={`${title}, open post`}>
        {post.imageUrl && <PetImage src={post.imageUrl} alt={title} height={{ xs: 200, sm: 260 }} />}
        <CardContent>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 1 }}>
            <Typography variant="h6" component="h3" sx={{ wordBreak: 'break-word', minWidth: 0 }}>
              {title}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
              {monthDay(post.createdAt)}
            </Typography>
          </Box>
          {text && (
            <Typography
              sx={{
                mt: 0.5,
                whiteSpace: 'pre-line',
                wordBreak: 'break-word',
                display: '-webkit-box',
                WebkitLineClamp: 4,
                WebkitBoxOrient: 'vertical',
                overflow: 'hidden',
              }}
            >
              {text}
            </Typography>
          )}
          <Box sx={{ mt: 1.5 }}>
            <Counts likes={likeCountOf(post)} comments={commentCountOf(post)} />
          </Box>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

function Empty({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <Box sx={{ textAlign: 'center', py: 4 }}>
      <Box aria-hidden sx={{ color: 'primary.light', '& svg': { fontSize: 44 } }}>
        {icon}
      </Box>
      <Typography variant="h6" component="h3">
        {title}
      </Typography>
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}
