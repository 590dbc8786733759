import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { palette } from '../theme';
import { TEAM_STALE_MS, teamApi, teamKeys } from './api';
import { membersFromState } from './members';
import { TeamGrid } from './TeamGrid';
import { RetryAlert } from '../shared/ui/RetryAlert';
import { usePrerenderHandoff } from '../shared/prerender';

/**
 * /team: every ambassador and collaborator. The landing page's 'See More Team Members' hands the list over in the
 * navigation state (`allMembers`); opened any other way (a link, a reload without state, a bookmark) the page reads GET
 * /api/team itself.
 */
export default function TeamPage() {
  const { state } = useLocation();
  const fromState = membersFromState(state);
  const team = useQuery({
    queryKey: teamKeys.all,
    queryFn: ({ signal }) => teamApi.members(signal),
    staleTime: TEAM_STALE_MS,
    enabled: fromState === null,
  });
  const members = fromState ?? team.data;
  // The prerendered first screen (index.html) goes once this one is rendered.
  usePrerenderHandoff();

  return (
    <Box>
      <Box
        sx={{
          background: `linear-gradient(135deg, ${palette.sand} 0%, ${palette.cream} 70%)`,
          py: { xs: 5, md: 7 },
        }}
      >
        <Container maxWidth="lg">
          <Typography variant="h3" component="h1" sx={{ fontSize: { xs: '2rem', md: '2.75rem' } }}>
            Our Ambassadors &amp; Collaborators
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1.5, maxWidth: 720 }}>
            The vets, rescuers, trainers and partners who help PawHaven&apos;s animals find safe, loving
            homes.
          </Typography>
        </Container>
      </Box>
      <Container maxWidth="lg" sx={{ py: { xs: 4, md: 6 } }}>
        {members ? (
          members.length > 0 ? (
            <TeamGrid members={members} headingLevel="h2" />
          ) : (
            <Typography color="text.secondary" sx={{ textAlign: 'center', py: 6 }}>
              Our team list is on its way. Please check back soon.
            </Typography>
          )
        ) : team.isError ? (
          <RetryAlert onRetry={() => void team.refetch()}>
            Failed to load the team. Please try again.
          </RetryAlert>
        ) : (
          // A screen's height while loading: the footer stays below the fold (no layout shift when the cards come).
          <Box role="status" sx={{ display: 'grid', placeItems: 'center', minHeight: '100dvh' }}>
            <CircularProgress aria-label="Loading team members" />
          </Box>
        )}
      </Container>
    </Box>
  );
}
