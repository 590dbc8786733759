import { lazy } from 'react';
import Typography from '@mui/material/Typography';
import { DIRECTORY_MESSAGES, type NgoDto } from '@pawhaven/contracts';
import { directoryApi } from './api';
import { DirectoryCard } from './components/DirectoryCard';
import { DirectoryLayout, imagePriority } from './components/DirectoryLayout';
import { filterNgos } from './search';
import { ngoImageAlt } from './texts';
import { useDirectorySearch } from './useDirectorySearch';

const loadDetails = () => import('./details');
const NgoDetails = lazy(() => loadDetails().then((m) => ({ default: m.NgoDetails })));

const countText = (n: number) =>
  n === 0 ? 'No matching NGOs' : n === 1 ? '1 NGO listed' : `${n} NGOs listed`;

/**
 * The NGO directory: search by name or description (`?q=` in the address), a grid of cards with View NGO Details, and a
 * modal with the mission, the services offered and the contact links.
 */
export default function NgoPage() {
  const search = useDirectorySearch('ngos', directoryApi.ngos, filterNgos);
  return (
    <DirectoryLayout<NgoDto>
      title={DIRECTORY_MESSAGES.ngoTitle}
      intro="Trusted animal-welfare organisations across Pakistan: rescue, shelter, treatment and adoption."
      searchLabel="Search NGOs"
      searchPlaceholder="Search by name or description"
      search={search}
      failedText={DIRECTORY_MESSAGES.ngoFailed}
      noMatchText={DIRECTORY_MESSAGES.ngoNoMatch}
      emptyText={DIRECTORY_MESSAGES.ngoEmpty}
      countText={countText}
      listLabel="NGOs"
      getId={(ngo) => ngo._id}
      renderItem={(ngo, index, open) => (
        <DirectoryCard
          key={ngo._id}
          imagePriority={imagePriority(index)}
          name={ngo.name}
          image={ngo.image}
          imageAlt={ngoImageAlt(ngo)}
          buttonLabel={DIRECTORY_MESSAGES.ngoDetailsButton}
          onOpen={open}
        >
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{
              display: '-webkit-box',
              WebkitLineClamp: 3,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
            }}
          >
            {ngo.description}
          </Typography>
        </DirectoryCard>
      )}
      prefetchDetails={loadDetails}
      renderDetails={(ngo, open, onClose) => <NgoDetails ngo={ngo} open={open} onClose={onClose} />}
    />
  );
}
