import { RealtimeProvider } from '../realtime';
import { AdminApp } from './AdminApp';

/**
 * The administrator's area, a lazily loaded chunk: react-admin, its data provider and the charts
 * stay out of the community pages' bundle. It renders without the community header and footer; the app's
 * socket connection carries the rebuild progress to the Projections screen.
 */
export default function AdminDashboardPage() {
  return (
    <RealtimeProvider>
      <AdminApp />
    </RealtimeProvider>
  );
}
