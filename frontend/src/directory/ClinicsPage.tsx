import { lazy } from 'react';
import { DIRECTORY_MESSAGES, type ClinicDto } from '@pawhaven/contracts';
import { directoryApi } from './api';
import { DirectoryCard } from './components/DirectoryCard';
import { DirectoryLayout, imagePriority } from './components/DirectoryLayout';
import { Location } from './components/Location';
import { filterClinics } from './search';
import { clinicImageAlt } from './texts';
import { useDirectorySearch } from './useDirectorySearch';

const loadDetails = () => import('./details');
const ClinicDetails = lazy(() => loadDetails().then((m) => ({ default: m.ClinicDetails })));

const countText = (n: number) =>
  n === 0 ? 'No matching clinics' : n === 1 ? '1 clinic listed' : `${n} clinics listed`;

/**
 * The clinics directory: search by name or location (`?q=` in the address), cards with name and location, and a View
 * Clinic Details modal with the services, the veterinarians (name, specialization) and the contact links.
 */
export default function ClinicsPage() {
  const search = useDirectorySearch('clinics', directoryApi.clinics, filterClinics);
  return (
    <DirectoryLayout<ClinicDto>
      title={DIRECTORY_MESSAGES.clinicsTitle}
      intro="Veterinary clinics and vets near you: services, specialists and how to reach them."
      searchLabel="Search clinics"
      searchPlaceholder="Search by name or location"
      search={search}
      failedText={DIRECTORY_MESSAGES.clinicFailed}
      noMatchText={DIRECTORY_MESSAGES.clinicNoMatch}
      emptyText={DIRECTORY_MESSAGES.clinicEmpty}
      countText={countText}
      listLabel="Clinics"
      getId={(clinic) => clinic._id}
      renderItem={(clinic, index, open) => (
        <DirectoryCard
          key={clinic._id}
          imagePriority={imagePriority(index)}
          name={clinic.name}
          image={clinic.image}
          imageAlt={clinicImageAlt(clinic)}
          buttonLabel={DIRECTORY_MESSAGES.clinicDetailsButton}
          onOpen={open}
        >
          <Location location={clinic.location} />
        </DirectoryCard>
      )}
      prefetchDetails={loadDetails}
      renderDetails={(clinic, open, onClose) => (
        <ClinicDetails clinic={clinic} open={open} onClose={onClose} />
      )}
    />
  );
}
