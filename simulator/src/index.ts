export {
  appendRealisticLog,
  realisticLog,
  type PlannedAppend,
  type RealisticLogOptions,
} from './realistic-log';
export { asciiUsernameKeys } from './usernames';
