import HistoryEduIcon from '@mui/icons-material/HistoryEdu';
import { StreamEvents } from './StreamEvents';
import { StreamList } from './StreamList';

/** The event browser: streams of the log (list) and one stream's events (show). */
export default { list: StreamList, show: StreamEvents, icon: HistoryEduIcon };
