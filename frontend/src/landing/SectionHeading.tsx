import Typography from '@mui/material/Typography';

/** A landing section's heading (h2) and its one-line introduction. */
export function SectionHeading({
  id,
  title,
  intro,
  light,
}: {
  id: string;
  title: string;
  intro?: string;
  light?: boolean;
}) {
  return (
    <>
      <Typography
        id={id}
        variant="h4"
        component="h2"
        textAlign="center"
        sx={{ fontSize: { xs: '1.8rem', md: '2.125rem' }, color: light ? 'inherit' : undefined }}
      >
        {title}
      </Typography>
      {intro && (
        <Typography
          textAlign="center"
          sx={{
            mt: 1.5,
            mx: 'auto',
            maxWidth: 640,
            color: light ? 'inherit' : 'text.secondary',
            opacity: light ? 0.9 : 1,
          }}
        >
          {intro}
        </Typography>
      )}
    </>
  );
}
