import DashboardIcon from '@mui/icons-material/Dashboard';
import PeopleIcon from '@mui/icons-material/People';
import HistoryEduIcon from '@mui/icons-material/HistoryEdu';
import ReplayIcon from '@mui/icons-material/Replay';
import { Menu, useBasename } from 'react-admin';

/**
 * The sidebar: Dashboard, Manage Users, Show Adoptions, Show Adoption Requests, Show Posts, Show Post Comments, in
 * that order, then the event browser and the projections screen that the event-sourced product adds (issue 10).
 */
export function AdminMenu() {
  const basename = useBasename();
  return (
    <Menu>
      <Menu.DashboardItem primaryText="Dashboard" leftIcon={<DashboardIcon />} />
      <Menu.Item to={`${basename}/manage-users`} primaryText="Manage Users" leftIcon={<PeopleIcon />} />
      <Menu.ResourceItem name="adoptions" primaryText="Show Adoptions" />
      <Menu.ResourceItem name="adoption-requests" primaryText="Show Adoption Requests" />
      <Menu.ResourceItem name="posts" primaryText="Show Posts" />
      <Menu.ResourceItem name="comments" primaryText="Show Post Comments" />
      <Menu.ResourceItem name="streams" primaryText="Events" leftIcon={<HistoryEduIcon />} />
      <Menu.Item to={`${basename}/projections`} primaryText="Projections" leftIcon={<ReplayIcon />} />
    </Menu>
  );
}
