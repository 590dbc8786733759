import { api } from '../shared/api';
import type { ContactFields } from './validation';

/** POST /api/contact: 201 {success, message, position}. */
export type ContactAnswer = { success?: boolean; message?: string; position?: string };

export const contactApi = {
  send: (body: ContactFields) => api.post<ContactAnswer>('/api/contact', body),
};
