import type { TeamMemberDto } from '@pawhaven/contracts';
import Box from '@mui/material/Box';
import { memberKey } from './members';
import { TeamCard } from './TeamCard';

/** Team cards in a grid: one column on phones, up to three on wide screens. */
export function TeamGrid({
  members,
  headingLevel,
}: {
  members: TeamMemberDto[];
  headingLevel?: 'h2' | 'h3';
}) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: {
          xs: 'minmax(0, 1fr)',
          sm: 'repeat(2, minmax(0, 1fr))',
          md: 'repeat(3, minmax(0, 1fr))',
        },
        alignItems: 'stretch',
      }}
    >
      {members.map((m) => (
        <TeamCard key={memberKey(m)} member={m} headingLevel={headingLevel} />
      ))}
    </Box>
  );
}
