import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardMedia from '@mui/material/CardMedia';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ChatIcon from '@mui/icons-material/ChatBubbleOutline';
import LocationIcon from '@mui/icons-material/PlaceOutlined';
import { api } from '../shared/api';
import { useCurrentUser } from '../shared/session';
import { PageLoader } from '../shared/ui/PageLoader';
import { UserAvatar } from '../shared/ui/UserAvatar';
import { accountsApi } from './api';
import { UserNameHeading } from '../shared/ui/UserNameHeading';
import { formatDate, relativeActive } from './profile/display';

type ProfileAd = {
  _id: string;
  name?: string;
  breed?: string;
  location?: string;
  age?: string | number;
  ageUnit?: string;
  imageUrl?: string;
  likes?: unknown[];
  comments?: unknown[];
};
type ProfilePost = {
  _id: string;
  caption?: string;
  text?: string;
  imageUrl?: string;
  createdAt?: string;
  likes?: unknown[];
  comments?: unknown[];
};

/** Lists that fail to load are shown as empty (spec 001 §4). */
const listOrEmpty = async <T,>(path: string): Promise<T[]> => {
  try {
    const data = await api.get<unknown>(path, { timeoutMs: 10_000, auth: false });
    if (Array.isArray(data)) return data as T[];
    const inner = (data as { data?: unknown })?.data;
    return Array.isArray(inner) ? (inner as T[]) : [];
  } catch {
    return [];
  }
};

export default function PublicProfilePage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const [tab, setTab] = useState<'ads' | 'posts'>('ads');

  const profile = useQuery({
    queryKey: ['public-profile', userId],
    queryFn: async () => {
      const res = await accountsApi.publicProfile(userId);
      if (!res?.success || !res.data) throw new Error(res?.message || 'Failed to load profile');
      return res.data;
    },
    retry: false,
  });
  const ads = useQuery({
    queryKey: ['user-adoptions', userId],
    queryFn: () => listOrEmpty<ProfileAd>(`/api/adoptions/user/${encodeURIComponent(userId)}`),
  });
  const posts = useQuery({
    queryKey: ['user-posts', userId],
    queryFn: () => listOrEmpty<ProfilePost>(`/api/posts/user/${encodeURIComponent(userId)}`),
  });

  const header = (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
      <IconButton aria-label="Go back" onClick={() => navigate(-1)}>
        <ArrowBackIcon />
      </IconButton>
      <Typography variant="h5" component="h1">
        Profile
      </Typography>
    </Box>
  );

  if (profile.isPending) {
    return (
      <Container maxWidth="md" sx={{ py: 3 }}>
        {header}
        <PageLoader />
      </Container>
    );
  }
  if (profile.isError || !profile.data) {
    return (
      <Container maxWidth="md" sx={{ py: 3 }}>
        {header}
        <Paper sx={{ p: 5, textAlign: 'center', border: 1, borderColor: 'divider' }} elevation={0}>
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

  const user = profile.data;
  const adList = ads.data ?? [];
  const postList = posts.data ?? [];
  const joined = formatDate(user.joinedDate);
  const isOther = Boolean(me) && (me?.id || me?._id) !== (user.id || user._id);

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
            {user.city && (
              <Typography
                color="text.secondary"
                sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 0.5 }}
              >
                <LocationIcon fontSize="small" aria-hidden /> {user.city}
              </Typography>
            )}
            <Typography sx={{ mt: 0.5, fontWeight: 700 }}>{adList.length} Adoption Ads</Typography>
            <Typography
              sx={{ mt: 2, whiteSpace: 'pre-line', color: user.about ? 'text.primary' : 'text.secondary' }}
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
                justifyContent: { xs: 'center', sm: 'flex-start' },
              }}
            >
              {joined && <Typography variant="body2">Joined {joined}</Typography>}
              {user.lastActive && (
                <Typography variant="body2">Active {relativeActive(user.lastActive)}</Typography>
              )}
            </Stack>
          </Box>
          {isOther && (
            <Button
              component={Link}
              to={`/chat/${user.id || user._id}`}
              variant="contained"
              startIcon={<ChatIcon />}
            >
              Message
            </Button>
          )}
        </Stack>
      </Paper>

      <Tabs
        value={tab}
        onChange={(_, v: 'ads' | 'posts') => setTab(v)}
        sx={{ mt: 3, borderBottom: 1, borderColor: 'divider' }}
        variant="fullWidth"
      >
        <Tab value="ads" label="Adoption Ads" id="tab-ads" aria-controls="panel-ads" />
        <Tab value="posts" label="Posts" id="tab-posts" aria-controls="panel-posts" />
      </Tabs>

      <Box role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} sx={{ py: 3 }}>
        {tab === 'ads' ? (
          ads.isPending ? (
            <Typography color="text.secondary">Loading adoption ads...</Typography>
          ) : adList.length === 0 ? (
            <Empty
              title="No Adoption Ads"
              text={`${user.username} hasn't posted any pets for adoption yet`}
            />
          ) : (
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
              }}
            >
              {adList.map((ad) => (
                <Card key={ad._id}>
                  {ad.imageUrl && (
                    <CardMedia component="img" height="160" image={ad.imageUrl} alt={ad.name ?? 'Pet'} />
                  )}
                  <CardContent>
                    <Chip label="Adoptable" color="success" size="small" sx={{ mb: 1 }} />
                    <Typography variant="h6" component="h3">
                      {ad.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {ad.breed || 'Mixed'} · {ad.location || 'Location not specified'}
                    </Typography>
                    <Typography variant="body2" sx={{ mt: 1 }}>
                      {ad.age ? `${ad.age} ${ad.ageUnit || 'yrs'}` : 'Age N/A'} · {ad.likes?.length ?? 0}{' '}
                      likes · {ad.comments?.length ?? 0} comments
                    </Typography>
                  </CardContent>
                </Card>
              ))}
            </Box>
          )
        ) : posts.isPending ? (
          <Typography color="text.secondary">Loading posts...</Typography>
        ) : postList.length === 0 ? (
          <Empty title="No Posts Yet" text={`${user.username} hasn't shared any posts yet`} />
        ) : (
          <Stack spacing={2}>
            {postList.map((post) => (
              <Card key={post._id}>
                {post.imageUrl && (
                  <CardMedia
                    component="img"
                    height="220"
                    image={post.imageUrl}
                    alt={post.caption || 'Pet Story'}
                  />
                )}
                <CardContent>
                  <Typography variant="h6" component="h3">
                    {post.caption || 'Pet Story'}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {formatDate(post.createdAt, { month: 'short', day: 'numeric' })} ·{' '}
                    {post.likes?.length ?? 0} likes · {post.comments?.length ?? 0} comments
                  </Typography>
                  {post.text && <Typography sx={{ mt: 1 }}>{post.text}</Typography>}
                </CardContent>
              </Card>
            ))}
          </Stack>
        )}
      </Box>
    </Container>
  );
}

function Empty({ title, text }: { title: string; text: string }) {
  return (
    <Box sx={{ textAlign: 'center', py: 4 }}>
      <Typography variant="h6" component="h3">
        {title}
      </Typography>
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}
