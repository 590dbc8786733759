import type { ClinicDto, NgoDto } from '@pawhaven/contracts';

/** The pictures' accessible names, the same on the card and in the details. */
export const ngoImageAlt = (ngo: Pick<NgoDto, 'name'>) => `Illustration for ${ngo.name}`;
export const clinicImageAlt = (clinic: Pick<ClinicDto, 'name'>) => `Illustration for ${clinic.name}`;
