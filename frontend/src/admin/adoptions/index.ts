import PetsIcon from '@mui/icons-material/Pets';
import { AdoptionHistory } from './AdoptionHistory';
import { AdoptionList } from './AdoptionList';

export { UserAdoptionList } from './AdoptionList';

/** Adoptions: the list and each ad's audit history as the show view (per-user list: a child route). */
export default { list: AdoptionList, show: AdoptionHistory, icon: PetsIcon };
