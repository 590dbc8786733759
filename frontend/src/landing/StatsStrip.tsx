import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { palette } from '../theme';
import { STATS_STALE_MS, landingApi, landingKeys } from './api';
import { statFigures } from './stats';

/**
 * The stats strip: live figures from GET /api/stats/landing; while there are none (an empty database) or the read
 * fails, placeholders ('0k', '4+').
 */
export function StatsStrip() {
  const stats = useQuery({
    queryKey: landingKeys.stats,
    queryFn: ({ signal }) => landingApi.stats(signal),
    staleTime: STATS_STALE_MS,
    retry: 1,
  });
  const figures = statFigures(stats.data ?? null);
  const loading = stats.isPending;

  return (
    <Box
      component="section"
      aria-labelledby="stats-heading"
      aria-busy={loading}
      sx={{ bgcolor: palette.cocoa, color: palette.cream, py: { xs: 5, md: 7 } }}
    >
      <Container maxWidth="lg">
        <Typography
          id="stats-heading"
          variant="h5"
          component="h2"
          textAlign="center"
          sx={{ color: palette.amber }}
        >
          PawHaven in Numbers
        </Typography>
        <Box
          component="dl"
          sx={{
            m: 0,
            mt: 3,
            display: 'grid',
            gap: { xs: 2, md: 3 },
            gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
          }}
        >
          {figures.map((f) => (
            <Box
              key={f.key}
              data-stat={f.key}
              data-live={f.live}
              sx={{
                display: 'flex',
                flexDirection: 'column-reverse',
                alignItems: 'center',
                textAlign: 'center',
                p: { xs: 1.5, md: 2 },
                borderRadius: '16px',
                bgcolor: 'rgba(255, 248, 240, 0.06)',
              }}
            >
              <Typography component="dt" sx={{ fontWeight: 800, fontSize: '1.05rem' }}>
                {f.label}
                <Box
                  component="span"
                  sx={{ display: 'block', fontWeight: 500, fontSize: '0.85rem', opacity: 0.85 }}
                >
                  {f.caption}
                </Box>
              </Typography>
              <Typography
                component="dd"
                sx={{
                  m: 0,
                  fontWeight: 800,
                  fontSize: { xs: '2.2rem', md: '2.8rem' },
                  lineHeight: 1.15,
                  minHeight: '1.15em',
                }}
              >
                {loading ? '…' : f.value}
              </Typography>
            </Box>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
