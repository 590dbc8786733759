import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQuery } from '@tanstack/react-query';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { ADMIN_MESSAGES, type AdminOverviewDto } from '@pawhaven/contracts';
import { PageHeading } from '../components/ListParts';
import { adminFetch } from '../httpClient';
import { formatCount, weekLabel, weekTicks } from '../format';

const CHART_HEIGHT = 260;

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card component="section" aria-label={title} sx={{ minWidth: 0 }}>
      <CardContent>
        <Typography variant="h6" component="h3" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** A figure with its breakdown ('Adoption ads 12: available 9, adopted 3'). */
function Figure({ label, value, parts }: { label: string; value: number; parts?: [string, number][] }) {
  return (
    <Card component="section" aria-label={label} sx={{ minWidth: 0 }}>
      <CardContent>
        <Typography variant="overline" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h4" component="p" data-testid={`figure-${label}`}>
          {formatCount(value)}
        </Typography>
        {parts && (
          <Typography variant="body2" color="text.secondary">
            {parts.map(([name, n]) => `${name} ${formatCount(n)}`).join(' · ')}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

/** How many weeks the sign-ups chart labels: a phone's narrow chart has room for four, a wider one for six. */
const SIGN_UP_TICKS = { narrow: 4, wide: 6 };

/**
 * The overview: the 'User Distribution' bar chart of veterinarians versus regular users, and the
 * live figures of issue 10 (ads and requests by status, posts, comments, messages, sign-ups per week).
 */
export function Overview() {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const { data, error, isPending } = useQuery({
    queryKey: ['admin', 'overview'],
    queryFn: ({ signal }) => adminFetch<AdminOverviewDto>('/overview', { signal }),
  });

  return (
    <>
      <PageHeading>Dashboard</PageHeading>
      {isPending && <Typography>{ADMIN_MESSAGES.loading}</Typography>}
      {error && (
        <Typography color="error" role="alert">
          {error.message || ADMIN_MESSAGES.fetchStatsFailed}
        </Typography>
      )}
      {data && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, mb: 2 }}>
          <Panel title={ADMIN_MESSAGES.userDistribution}>
            <Box sx={{ height: CHART_HEIGHT }}>
              <ResponsiveContainer width="100%" height="100%">
                <BarChart
                  data={[
                    { name: 'Veterinarians', count: data.veterinarians },
                    { name: 'Regular Users', count: data.regularUsers },
                    { name: 'Admins', count: data.admins },
                  ]}
                  margin={{ top: 8, right: 8, left: -16, bottom: 0 }}
                >
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="name" tick={{ fontSize: 12 }} />
                  <YAxis allowDecimals={false} />
                  <Tooltip />
                  <Bar dataKey="count" name="Users" fill={theme.palette.primary.main} />
                </BarChart>
              </ResponsiveContainer>
            </Box>
          </Panel>
          <Panel title="Sign-ups per week">
            <Box sx={{ height: CHART_HEIGHT }}>
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={data.signUpsPerWeek} margin={{ top: 8, right: 24, left: -16, bottom: 0 }}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis
                    dataKey="weekStart"
                    ticks={weekTicks(
                      data.signUpsPerWeek.map((w) => w.weekStart),
                      narrow ? SIGN_UP_TICKS.narrow : SIGN_UP_TICKS.wide,
                    )}
                    interval={0}
                    tickFormatter={weekLabel}
                    tick={{ fontSize: 12 }}
                  />
                  <YAxis allowDecimals={false} />
                  <Tooltip labelFormatter={(day) => `Week of ${weekLabel(String(day))}`} />
                  <Line
                    type="monotone"
                    dataKey="count"
                    name="Sign-ups"
                    stroke={theme.palette.secondary.main}
                  />
                </LineChart>
              </ResponsiveContainer>
            </Box>
          </Panel>
        </Box>
      )}
      {data && (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(5, 1fr)' },
          }}
        >
          <Figure
            label="Adoption ads"
            value={data.ads.total}
            parts={[
              ['available', data.ads.available],
              ['adopted', data.ads.adopted],
              ['deleted', data.ads.deleted],
            ]}
          />
          <Figure
            label="Adoption requests"
            value={data.requests.total}
            parts={[
              ['pending', data.requests.pending],
              ['accepted', data.requests.accepted],
              ['rejected', data.requests.rejected],
              ['withdrawn', data.requests.withdrawn],
              ['closed', data.requests.closed],
            ]}
          />
          <Figure label="Posts" value={data.posts} />
          <Figure label="Comments" value={data.comments} />
          <Figure label="Messages" value={data.messages} />
        </Box>
      )}
    </>
  );
}
