import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ClinicDto, NgoDto } from '@pawhaven/contracts';
import { ContactLinks } from './components/ContactLinks';
import { DetailsDialog, DetailsSection, TextList } from './components/DetailsDialog';
import { Location } from './components/Location';
import { clinicImageAlt, ngoImageAlt } from './texts';

/**
 * The details modals of the two directories. Their own chunk (MUI's dialog, focus trap and transitions): fetched when
 * the pointer or the focus reaches the grid, so the cards are not held back by it.
 */

type DetailsProps = { open: boolean; onClose: () => void };

/** An NGO: description, mission, services offered and the contact links. */
export function NgoDetails({ ngo, open, onClose }: DetailsProps & { ngo: NgoDto }) {
  return (
    <DetailsDialog
      open={open}
      onClose={onClose}
      title={ngo.name}
      image={ngo.image}
      imageAlt={ngoImageAlt(ngo)}
    >
      <Typography color="text.secondary">{ngo.description}</Typography>
      <DetailsSection title="Mission">
        <Typography>{ngo.mission}</Typography>
      </DetailsSection>
      <DetailsSection title="Services Offered">
        <TextList items={ngo.services ?? []} empty="No services listed." />
      </DetailsSection>
      <DetailsSection title="Contact">
        <ContactLinks phone={ngo.contact?.phone} email={ngo.contact?.email} />
      </DetailsSection>
    </DetailsDialog>
  );
}

/** A clinic: location, services, the veterinarians (name, specialization) and the contact links. */
export function ClinicDetails({ clinic, open, onClose }: DetailsProps & { clinic: ClinicDto }) {
  return (
    <DetailsDialog
      open={open}
      onClose={onClose}
      title={clinic.name}
      image={clinic.image}
      imageAlt={clinicImageAlt(clinic)}
    >
      <Location location={clinic.location} />
      <DetailsSection title="Services">
        <TextList items={clinic.services_offered ?? []} empty="No services listed." />
      </DetailsSection>
      <DetailsSection title="Veterinarians">
        {(clinic.veterinarians ?? []).length === 0 ? (
          <Typography color="text.secondary">No veterinarians listed.</Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
            {clinic.veterinarians.map((vet, i) => (
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
        <ContactLinks phone={clinic.contact?.phone} email={clinic.contact?.email} />
      </DetailsSection>
    </DetailsDialog>
  );
}
