import AssignmentIcon from '@mui/icons-material/AssignmentInd';
import { RequestList } from './RequestList';

export { UserRequestList } from './RequestList';

/** Adoption requests: the list (per-user list: a child route). */
export default { list: RequestList, icon: AssignmentIcon };
