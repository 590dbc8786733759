import simpleRestProvider from 'ra-data-simple-rest';
import { httpClient } from './httpClient';

/**
 * react-admin's stock simple-REST provider, unchanged, over /api/admin: `sort`, `range` and
 * `filter` query parameters, the total in `Content-Range`. Only the HTTP client is ours (token, queue, errors).
 */
export const dataProvider = simpleRestProvider('/api/admin', httpClient, 'Content-Range');
