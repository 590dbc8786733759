import { useState } from 'react';
import Typography from '@mui/material/Typography';
import { DIRECTORY_MESSAGES, type NgoDto } from '@pawhaven/contracts';
import { directoryApi } from './api';
import { ContactLinks } from './components/ContactLinks';
import { DetailsDialog, DetailsSection, TextList } from './components/DetailsDialog';
import { DirectoryCard } from './components/DirectoryCard';
import { DirectoryLayout, imagePriority } from './components/DirectoryLayout';
import { filterNgos } from './search';
import { useDirectorySearch } from './useDirectorySearch';

const countText = (n: number) =>
  n === 0 ? 'No matching NGOs' : n === 1 ? '1 NGO listed' : `${n} NGOs listed`;
const imageAlt = (ngo: NgoDto) => `Illustration for ${ngo.name}`;

/**
 * The NGO directory (spec 000 §2): search by name or description (`?q=` in the address), a grid of cards with
 * View NGO Details, and a modal with the mission, the services offered and the contact links.
 */
export default function NgoPage() {
  const search = useDirectorySearch('ngos', directoryApi.ngos, filterNgos);
  const [openId, setOpenId] = useState<string | null>(null);
  // The open entry stays shown while the dialog closes, even when the search leaves it out.
  const [shown, setShown] = useState<NgoDto | null>(null);

  return (
    <DirectoryLayout<NgoDto>
      title={DIRECTORY_MESSAGES.ngoTitle}
      intro="Trusted animal-welfare organisations across Pakistan: rescue, shelter, treatment and adoption."
      searchLabel="Search NGOs"
      searchPlaceholder="Search by name or description"
      term={search.term}
      onTermChange={search.setTerm}
      items={search.items}
      failed={search.failed}
      busy={search.busy}
      onRetry={search.retry}
      failedText={DIRECTORY_MESSAGES.ngoFailed}
      noMatchText={DIRECTORY_MESSAGES.ngoNoMatch}
      emptyText={DIRECTORY_MESSAGES.ngoEmpty}
      countText={countText}
      listLabel="NGOs"
      renderItem={(ngo, index) => (
        <DirectoryCard
          key={ngo._id}
          imagePriority={imagePriority(index)}
          name={ngo.name}
          image={ngo.image}
          imageAlt={imageAlt(ngo)}
          buttonLabel={DIRECTORY_MESSAGES.ngoDetailsButton}
          onOpen={() => {
            setShown(ngo);
            setOpenId(ngo._id);
          }}
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
    >
      {shown && (
        <DetailsDialog
          open={openId === shown._id}
          onClose={() => setOpenId(null)}
          title={shown.name}
          image={shown.image}
          imageAlt={imageAlt(shown)}
        >
          <Typography color="text.secondary">{shown.description}</Typography>
          <DetailsSection title="Mission">
            <Typography>{shown.mission}</Typography>
          </DetailsSection>
          <DetailsSection title="Services Offered">
            <TextList items={shown.services ?? []} empty="No services listed." />
          </DetailsSection>
          <DetailsSection title="Contact">
            <ContactLinks phone={shown.contact?.phone} email={shown.contact?.email} />
          </DetailsSection>
        </DetailsDialog>
      )}
    </DirectoryLayout>
  );
}
