import PeopleIcon from '@mui/icons-material/People';

export { ManageUsers } from './ManageUsers';

/** Users: no list route of its own (Manage Users lives at /manage-users), only the resource. */
export default { icon: PeopleIcon, recordRepresentation: 'username' };
