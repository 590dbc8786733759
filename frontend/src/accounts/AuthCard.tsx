import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import PetsIcon from '@mui/icons-material/Pets';

/** The frame shared by the account screens: a centred card that fills a phone screen comfortably. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, sm: 6 }, px: { xs: 1.5, sm: 3 } }}>
      <Paper sx={{ p: { xs: 2.5, sm: 5 }, border: 1, borderColor: 'divider' }} elevation={0}>
        <Box sx={{ textAlign: 'center', mb: 1 }}>
          <Box
            aria-hidden
            sx={{
              width: 56,
              height: 56,
              mx: 'auto',
              mb: 1.5,
              borderRadius: '50%',
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'rgba(180, 70, 47, 0.1)',
              color: 'primary.main',
            }}
          >
            <PetsIcon />
          </Box>
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' } }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {subtitle}
            </Typography>
          )}
        </Box>
        {children}
      </Paper>
    </Container>
  );
}
