import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import { TEAM_STALE_MS, teamApi, teamKeys } from '../team/api';
import { landingTeam } from '../team/members';
import { TeamGrid } from '../team/TeamGrid';
import { SectionHeading } from './SectionHeading';
import { RetryAlert } from '../shared/ui/RetryAlert';

/**
 * The landing page's ambassador and collaborator cards: the first three, and 'See More Team Members' when there are
 * more, which opens /team with the whole list in the navigation state (`allMembers`).
 */
export function TeamPreview() {
  const team = useQuery({
    queryKey: teamKeys.all,
    queryFn: ({ signal }) => teamApi.members(signal),
    staleTime: TEAM_STALE_MS,
  });
  const all = team.data ?? [];
  const { shown, hasMore } = landingTeam(all);

  return (
    <Box
      component="section"
      aria-labelledby="team-heading"
      sx={{ bgcolor: 'background.paper', py: { xs: 6, md: 9 } }}
    >
      <Container maxWidth="lg">
        <SectionHeading
          id="team-heading"
          title="Our Ambassadors & Collaborators"
          intro="Vets, rescuers and partners who give their time so more animals find safe homes."
        />
        <Box sx={{ mt: 4 }} aria-busy={team.isPending}>
          {team.isPending ? (
            // The space of one row of cards is kept while they load (no layout shift).
            <Box
              role="status"
              sx={{ minHeight: 360, display: 'grid', placeItems: 'center', color: 'text.secondary' }}
            >
              Loading team members…
            </Box>
          ) : team.isError ? (
            <RetryAlert onRetry={() => void team.refetch()}>
              Failed to load the team. Please try again.
            </RetryAlert>
          ) : shown.length === 0 ? (
            <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
              Our team list is on its way. Please check back soon.
            </Typography>
          ) : (
            <TeamGrid members={shown} headingLevel="h3" />
          )}
        </Box>
        {hasMore && (
          <Box sx={{ mt: 4, textAlign: 'center' }}>
            <Button
              variant="contained"
              size="large"
              endIcon={<ArrowForwardIcon aria-hidden />}
              component={RouterLink}
              to="/team"
              state={{ allMembers: all }}
            >
              See More Team Members
            </Button>
          </Box>
        )}
      </Container>
    </Box>
  );
}
