import { useState } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import { DIRECTORY_MESSAGES, type ClinicDto } from '@pawhaven/contracts';
import { directoryApi } from './api';
import { ContactLinks } from './components/ContactLinks';
import { DetailsDialog, DetailsSection, TextList } from './components/DetailsDialog';
import { DirectoryCard } from './components/DirectoryCard';
import { DirectoryLayout, imagePriority } from './components/DirectoryLayout';
import { filterClinics } from './search';
import { useDirectorySearch } from './useDirectorySearch';
import { visuallyHidden } from './components/visuallyHidden';

const countText = (n: number) =>
  n === 0 ? 'No matching clinics' : n === 1 ? '1 clinic listed' : `${n} clinics listed`;
const imageAlt = (clinic: ClinicDto) => `Illustration for ${clinic.name}`;

function Location({ location }: { location: string }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'flex-start', color: 'text.secondary' }}>
      <PlaceIcon fontSize="small" aria-hidden sx={{ mt: '2px' }} />
      <Typography sx={{ overflowWrap: 'anywhere' }}>
        <Box component="span" sx={visuallyHidden}>
          Location:{' '}
        </Box>
        {location}
      </Typography>
    </Stack>
  );
}

/**
 * The clinics directory (spec 000 §2): search by name or location (`?q=` in the address), cards with name and
 * location, and a View Clinic Details modal with the services, the veterinarians (name, specialization) and the
 * contact links.
 */
export default function ClinicsPage() {
  const search = useDirectorySearch('clinics', directoryApi.clinics, filterClinics);
  const [openId, setOpenId] = useState<string | null>(null);
  // The open entry stays shown while the dialog closes, even when the search leaves it out.
  const [shown, setShown] = useState<ClinicDto | null>(null);

  return (
    <DirectoryLayout<ClinicDto>
      title={DIRECTORY_MESSAGES.clinicsTitle}
      intro="Veterinary clinics and vets near you: services, specialists and how to reach them."
      searchLabel="Search clinics"
      searchPlaceholder="Search by name or location"
      term={search.term}
      onTermChange={search.setTerm}
      items={search.items}
      failed={search.failed}
      busy={search.busy}
      onRetry={search.retry}
      failedText={DIRECTORY_MESSAGES.clinicFailed}
      noMatchText={DIRECTORY_MESSAGES.clinicNoMatch}
      emptyText={DIRECTORY_MESSAGES.clinicEmpty}
      countText={countText}
      listLabel="Clinics"
      renderItem={(clinic, index) => (
        <DirectoryCard
          key={clinic._id}
          imagePriority={imagePriority(index)}
          name={clinic.name}
          image={clinic.image}
          imageAlt={imageAlt(clinic)}
          buttonLabel={DIRECTORY_MESSAGES.clinicDetailsButton}
          onOpen={() => {
            setShown(clinic);
            setOpenId(clinic._id);
          }}
        >
          <Location location={clinic.location} />
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
          <Location location={shown.location} />
          <DetailsSection title="Services">
            <TextList items={shown.services_offered ?? []} empty="No services listed." />
          </DetailsSection>
          <DetailsSection title="Veterinarians">
            {(shown.veterinarians ?? []).length === 0 ? (
              <Typography color="text.secondary">No veterinarians listed.</Typography>
            ) : (
              <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
                {shown.veterinarians.map((vet, i) => (
                  <Box
                    component="li"
                    key={`${i}-${vet.name}`}
                    sx={{ p: 1.25, borderRadius: 2, bgcolor: 'rgba(35, 112, 106, 0.07)' }}
                  >
                    <Typography sx={{ fontWeight: 700 }}>{vet.name}</Typography>
                    <Typography color="text.secondary" variant="body2">
                      {vet.specialization}
                    </Typography>
                  </Box>
                ))}
              </Box>
            )}
          </DetailsSection>
          <DetailsSection title="Contact">
            <ContactLinks phone={shown.contact?.phone} email={shown.contact?.email} />
          </DetailsSection>
        </DetailsDialog>
      )}
    </DirectoryLayout>
  );
}
