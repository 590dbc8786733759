import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { VetBadge } from './VetBadge';

/** A profile's username as its heading, with the 'Veterinarian' badge for vets. */
export function UserNameHeading({ username, isVeterinarian }: { username: string; isVeterinarian: boolean }) {
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{
        alignItems: 'center',
        flexWrap: 'wrap',
        rowGap: 1,
        justifyContent: { xs: 'center', sm: 'flex-start' },
      }}
    >
      <Typography
        variant="h4"
        component="h2"
        sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, wordBreak: 'break-word' }}
      >
        {username}
      </Typography>
      {isVeterinarian && <VetBadge />}
    </Stack>
  );
}
